package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.BatchPlan;
import io.jimflow.maintenance.MaintenanceActivities.PurgeRequest;
import io.jimflow.schedule.Bounded;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What one purge of history retention does on this worker, whatever its workflow input asked:
 * entries older than the cutoff go, at most the batch size a transaction, and the note says what
 * the worker changed (a period shorter than its own, a batch larger than its own).
 *
 * @param note null when the request was used as it came
 */
record PurgeBounds(Instant cutoff, BatchPlan plan, String note) {

  /**
   * @throws IllegalArgumentException when the request's batch size is below 1
   */
  static PurgeBounds of(PurgeRequest request, MaintenanceSettings settings) {
    Bounded<Duration> period =
        settings.retention().boundedPeriod(request.kind(), request.overrides());
    Bounded<BatchPlan> plan = BatchPlan.bounded(request.batchSize(), settings.batchSize());
    String note =
        Stream.of(period.note(), plan.note())
            .filter(Objects::nonNull)
            .collect(
                Collectors.collectingAndThen(
                    Collectors.joining("; "), joined -> joined.isEmpty() ? null : joined));
    return new PurgeBounds(request.asOf().minus(period.value()), plan.value(), note);
  }
}
