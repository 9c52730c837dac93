package io.jimflow.schedule.steps;

import io.temporal.client.ActivityCanceledException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A StepProgress that records each report and can play a cancellation after some heartbeats. */
final class RecordingProgress implements StepProgress {

  record Report(long processed, long total, String checkpoint) {}

  final List<Report> reports = new CopyOnWriteArrayList<>();
  private final String previousCheckpoint;
  private final AtomicInteger cancelAfter = new AtomicInteger(Integer.MAX_VALUE);
  private volatile String checkpoint;

  RecordingProgress(String previousCheckpoint) {
    this.previousCheckpoint = previousCheckpoint;
    this.checkpoint = previousCheckpoint;
  }

  RecordingProgress cancelAfter(int heartbeats) {
    cancelAfter.set(heartbeats);
    return this;
  }

  @Override
  public void report(long processed, long total, String checkpoint) {
    if (checkpoint != null) {
      this.checkpoint = checkpoint;
    }
    reports.add(new Report(processed, total, this.checkpoint));
    if (reports.size() >= cancelAfter.get()) {
      throw new ActivityCanceledException();
    }
  }

  @Override
  public Optional<String> lastCheckpoint() {
    return Optional.ofNullable(checkpoint);
  }

  String previous() {
    return previousCheckpoint;
  }
}
