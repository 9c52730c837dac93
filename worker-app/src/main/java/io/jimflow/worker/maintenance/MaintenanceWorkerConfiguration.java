package io.jimflow.worker.maintenance;

import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.maintenance.CsvExampleDataGenerator;
import io.jimflow.maintenance.DataGenerationActivitiesImpl;
import io.jimflow.maintenance.ExampleDataGenerator;
import io.jimflow.maintenance.GuardedRunProfileExecutor;
import io.jimflow.maintenance.MaintenanceActivitiesImpl;
import io.jimflow.maintenance.MaintenanceRuns;
import io.jimflow.maintenance.MaintenanceStore;
import io.jimflow.maintenance.SystemOperations;
import io.jimflow.steps.RunProfileExecutor;
import io.jimflow.steps.UnconfiguredRunProfileExecutor;
import io.jimflow.store.Store;
import io.jimflow.sync.SyncEngine;
import io.jimflow.worker.store.StoreConfiguration;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the maintenance task queue, which {@code WorkerRegistrations} registers on it. Also
 * wraps every {@link RunProfileExecutor} so that a run profile of a connected system being cleared
 * or deleted fails instead of racing it.
 */
@Configuration
public class MaintenanceWorkerConfiguration {

  @Bean
  MaintenanceActivitiesImpl maintenanceActivities(
      Store store, DataPlaneConfig config, MaintenanceProperties properties) {
    Clock clock = Clock.systemUTC();
    return new MaintenanceActivitiesImpl(
        new MaintenanceStore(store, new SyncEngine(config.syncRules()), clock),
        new MaintenanceRuns(clock),
        new SystemOperations(clock),
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

  /** Puts the maintenance guard in front of whichever run profile executor the worker has. */
  @Bean
  static BeanPostProcessor guardRunProfiles(
      ObjectProvider<Store> store, ObjectProvider<DataPlaneConfig> config) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String name) {
        // Without a data plane no run profile runs, so there is nothing to guard (or to open).
        if (!(bean instanceof RunProfileExecutor executor)
            || bean instanceof GuardedRunProfileExecutor
            || bean instanceof UnconfiguredRunProfileExecutor) {
          return bean;
        }
        return new GuardedRunProfileExecutor(
            executor,
            store.getObject(),
            new SystemOperations(Clock.systemUTC()),
            idOrName ->
                config
                    .getObject()
                    .system(idOrName)
                    .map(ConnectedSystemConfig::id)
                    .orElse(idOrName));
      }
    };
  }
}
