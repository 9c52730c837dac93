package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.BatchPlan;
import io.jimflow.maintenance.MvoDeletionPolicy;
import io.jimflow.maintenance.RetentionPolicy;

/**
 * The worker's maintenance settings. A workflow input may ask for less for one run (fewer MVOs,
 * smaller batches, longer retention), never for more: these are also the bounds of what it asks.
 *
 * @param maxMvosPerCycle housekeeping's cap of MVO deletions per cycle (JIM: 50), also the most a
 *     workflow input may ask for
 * @param retention how long each kind of history is kept (JIM: 90 days), also the shortest a
 *     workflow input may ask for
 * @param batchSize rows deleted per transaction by history retention, also the most a workflow
 *     input may ask for
 */
public record MaintenanceSettings(int maxMvosPerCycle, RetentionPolicy retention, int batchSize) {

  public static final MaintenanceSettings DEFAULT =
      new MaintenanceSettings(
          MvoDeletionPolicy.DEFAULT_MAX_PER_CYCLE,
          RetentionPolicy.DEFAULT,
          BatchPlan.DEFAULT_BATCH_SIZE);

  public MaintenanceSettings {
    MvoDeletionPolicy.check(maxMvosPerCycle);
    new BatchPlan(batchSize);
    retention = RetentionPolicy.DEFAULT.overriddenBy(retention);
  }
}
