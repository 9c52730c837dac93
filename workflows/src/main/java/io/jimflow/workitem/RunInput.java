package io.jimflow.workitem;

import java.time.Duration;

/**
 * The run activity's input; the item itself comes from the claim, so a queued attempt never runs
 * stale.
 *
 * @param maxRestarts the item's {@code maxRestarts}, which the run worker holds to its maximum; -1
 *     when not known (an attempt scheduled before inputs carried it)
 * @param retryDelay the item's {@code retryDelay}, likewise; null when not known
 */
public record RunInput(
    String guid, String kind, int instance, long token, int maxRestarts, Duration retryDelay) {

  /** An input that leaves the item's restarts and retry delay unknown. */
  public RunInput(String guid, String kind, int instance, long token) {
    this(guid, kind, instance, token, WorkItemSpec.DEFAULT, null);
  }

  /** The input of a run of {@code spec}'s item. */
  static RunInput of(WorkItemSpec spec, int instance, long token) {
    return new RunInput(
        spec.guid(), spec.kind(), instance, token, spec.maxRestarts(), spec.retryDelay());
  }
}
