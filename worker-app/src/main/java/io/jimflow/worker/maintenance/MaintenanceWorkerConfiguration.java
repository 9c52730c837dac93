package io.jimflow.worker.maintenance;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.maintenance.activities.MaintenanceActivitiesImpl;
import io.jimflow.maintenance.activities.StoreMaintenance;
import io.jimflow.maintenance.activities.SystemOperations;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.Store;
import io.jimflow.sync.SyncEngine;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the maintenance task queue, which {@code TemporalWorkersConfiguration} registers on
 * it. A run profile of a connected system being cleared or deleted is refused by the run profile
 * executor itself (see {@code SystemHolds}).
 */
@Configuration
public class MaintenanceWorkerConfiguration {

  @Bean
  MaintenanceActivitiesImpl maintenanceActivities(
      Store store,
      DataPlaneConfig config,
      MaintenanceWorkerSettings maintenance,
      JimflowMetrics metrics) {
    Clock clock = Clock.systemUTC();
    return new MaintenanceActivitiesImpl(
        new StoreMaintenance(store, new SyncEngine(config.syncRules()), clock),
        new MaintenanceRuns(clock),
        new SystemOperations(store, clock),
        maintenance.settings(),
        id -> config.connectedSystems().stream().anyMatch(s -> s.id().equals(id)),
        maintenance.destructiveTasksEnabled(),
        null,
        clock,
        metrics);
  }
}
