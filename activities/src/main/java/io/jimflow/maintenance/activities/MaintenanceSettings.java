package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.BatchPlan;
import io.jimflow.maintenance.MvoDeletionPolicy;
import io.jimflow.maintenance.RetentionPolicy;

/**
 * The worker's maintenance settings; a workflow input may override each for one run.
 *
 * @param maxMvosPerCycle housekeeping's cap of MVO deletions per cycle (JIM: 50)
 * @param retention how long each kind of history is kept (JIM: 90 days)
 * @param batchSize rows deleted per transaction by history retention
 */
public record MaintenanceSettings(int maxMvosPerCycle, RetentionPolicy retention, int batchSize) {

  public static final MaintenanceSettings DEFAULT =
      new MaintenanceSettings(
          MvoDeletionPolicy.DEFAULT_MAX_PER_CYCLE,
          RetentionPolicy.DEFAULT,
          BatchPlan.DEFAULT_BATCH_SIZE);

  public MaintenanceSettings {
    MvoDeletionPolicy.maxPerCycle(maxMvosPerCycle, maxMvosPerCycle);
    new BatchPlan(batchSize);
    retention = RetentionPolicy.DEFAULT.overriddenBy(retention);
  }
}
