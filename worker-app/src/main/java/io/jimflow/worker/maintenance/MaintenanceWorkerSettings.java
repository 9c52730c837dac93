package io.jimflow.worker.maintenance;

import io.jimflow.maintenance.BatchPlan;
import io.jimflow.maintenance.MvoDeletionPolicy;
import io.jimflow.maintenance.RetentionPolicy;
import io.jimflow.maintenance.activities.MaintenanceSettings;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Maintenance settings ({@code jimflow.maintenance.*}), e.g. {@code
 * JIMFLOW_MAINTENANCE_RETENTION_RUN_RECORDS=30d}.
 *
 * @param maxMvosPerCycle MVOs one housekeeping cycle deletes at most (50)
 * @param retention per kind of history, how long it is kept (90 days each)
 * @param batchSize rows history retention deletes per transaction (1,000)
 * @param destructiveTasksEnabled whether this worker clears and deletes connected systems (off
 *     unless set; {@code ./jimflow dev} sets it)
 */
@ConfigurationProperties("jimflow.maintenance")
public record MaintenanceWorkerSettings(
    Integer maxMvosPerCycle,
    Retention retention,
    Integer batchSize,
    boolean destructiveTasksEnabled) {

  /** Retention periods; an unset one is 90 days. */
  public record Retention(Duration csoChanges, Duration mvoChanges, Duration runRecords) {}

  /** The settings the activities use; invalid values fail the worker's start with the reason. */
  public MaintenanceSettings settings() {
    return new MaintenanceSettings(
        maxMvosPerCycle == null ? MvoDeletionPolicy.DEFAULT_MAX_PER_CYCLE : maxMvosPerCycle,
        retention == null
            ? null
            : new RetentionPolicy(
                retention.csoChanges(), retention.mvoChanges(), retention.runRecords()),
        batchSize == null ? BatchPlan.DEFAULT_BATCH_SIZE : batchSize);
  }
}
