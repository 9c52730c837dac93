package io.jimflow.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that stands still until a test sets or advances it, so code that takes a {@link
 * Clock} can be checked at any moment the test names. Safe to read from other threads.
 */
public final class SettableClock extends Clock {

  private volatile Instant now;

  public SettableClock(Instant now) {
    this.now = now;
  }

  public void set(Instant instant) {
    now = instant;
  }

  public void advance(Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
