package io.jimflow.schedule;

import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Notification activities that keep what they were asked to post, or refuse it. */
final class RecordingNotifications implements NotificationActivities {

  private final List<Notification> sent = new CopyOnWriteArrayList<>();
  volatile boolean refuse;

  @Override
  public void notify(Notification notification) {
    if (refuse) {
      throw ApplicationFailure.newNonRetryableFailure("not allowed", REFUSED);
    }
    sent.add(notification);
  }

  List<Notification> sent() {
    return List.copyOf(sent);
  }

  /** Waits until at least {@code count} notifications were posted. */
  List<Notification> await(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (sent.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return sent();
  }
}
