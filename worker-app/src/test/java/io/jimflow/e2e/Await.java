package io.jimflow.e2e;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waits in end-to-end tests for something a user would see, polling until a deadline. */
public final class Await {

  private Await() {}

  /**
   * Returns as soon as {@code condition} holds; fails naming {@code what} was awaited if it does
   * not within {@code patience}.
   */
  public static void until(BooleanSupplier condition, String what, Duration patience, Duration poll)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(patience);
    while (Instant.now().isBefore(deadline)) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(poll.toMillis());
    }
    throw new AssertionError("within " + patience.toSeconds() + " s: " + what);
  }
}
