package io.jimflow.worker.maintenance;

import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.maintenance.CsvExampleDataGenerator;
import io.jimflow.maintenance.DataGenerationActivitiesImpl;
import io.jimflow.maintenance.ExampleDataGenerator;
import io.jimflow.maintenance.MaintenanceActivitiesImpl;
import io.jimflow.maintenance.StoreMaintenance;
import io.jimflow.maintenance.SystemOperations;
import io.jimflow.store.MaintenanceRuns;
import io.jimflow.store.Store;
import io.jimflow.sync.SyncEngine;
import io.jimflow.worker.store.StoreConfiguration;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the maintenance task queue, which {@code WorkerRegistrations} registers on it. A run
 * profile of a connected system being cleared or deleted is refused by the run profile executor
 * itself (see {@code SystemHolds}).
 */
@Configuration
public class MaintenanceWorkerConfiguration {

  @Bean
  MaintenanceActivitiesImpl maintenanceActivities(
      Store store, DataPlaneConfig config, MaintenanceProperties properties) {
    Clock clock = Clock.systemUTC();
    return new MaintenanceActivitiesImpl(
        new StoreMaintenance(store, new SyncEngine(config.syncRules()), clock),
        new MaintenanceRuns(clock),
        new SystemOperations(store, clock),
        properties.settings(),
        id -> config.connectedSystems().stream().anyMatch(s -> s.id().equals(id)),
        properties.destructiveTasksEnabled());
  }

  /** The data plane's example data generator, writing CSV files on this worker. */
  @Bean
  ExampleDataGenerator exampleDataGenerator() {
    return new CsvExampleDataGenerator();
  }

  /**
   * Example data generation as an activity; uses the data plane's generator when the worker has an
   * {@link ExampleDataGenerator} bean, and refuses requests otherwise.
   */
  @Bean
  DataGenerationActivitiesImpl dataGenerationActivities(
      ObjectProvider<ExampleDataGenerator> generator) {
    return new DataGenerationActivitiesImpl(
        Optional.ofNullable(generator.getIfAvailable()),
        StoreConfiguration.resolveAgainstHome(Path.of("")));
  }
}
