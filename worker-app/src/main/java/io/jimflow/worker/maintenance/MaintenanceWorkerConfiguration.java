package io.jimflow.worker.maintenance;

import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
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
import io.jimflow.store.StoreSettings;
import io.jimflow.sync.SyncEngine;
import io.jimflow.sync.SyncRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of the maintenance task queue; application.yaml registers the maintenance workflows
 * and the {@code maintenanceActivities} bean on it. Also wraps every {@link RunProfileExecutor} so
 * that a run profile of a connected system being cleared or deleted fails instead of racing it.
 */
@Configuration
public class MaintenanceWorkerConfiguration {

  /**
   * The store, unless another configuration provides one: {@code jimflow.store.url} (user, password,
   * max-pool-size), or the embedded H2 file {@code data/jimflow} under the jimflow home, the same
   * settings the data plane's run profile executor uses. Opened on first use.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(Store.class)
  Store jimflowStore(@Value("${jimflow.store.url:}") String url,
      @Value("${jimflow.store.user:}") String user,
      @Value("${jimflow.store.password:}") String password,
      @Value("${jimflow.store.max-pool-size:8}") int maxPoolSize) {
    StoreSettings settings;
    if (url.isBlank()) {
      settings = StoreSettings.embedded(resolveAgainstHome(Path.of("data")));
    } else {
      // H2's embedded default user, unless one is set.
      String effectiveUser = user.isBlank() && url.startsWith("jdbc:h2:") ? "sa" : user;
      settings = new StoreSettings(url, effectiveUser, password, maxPoolSize);
    }
    return new Store(new LazyStoreDataSource(settings));
  }

  /** The connected systems and sync rules, unless another configuration provides them. */
  @Bean
  @ConditionalOnMissingBean(DataPlaneConfig.class)
  DataPlaneConfig dataPlaneConfig(
      @Value("${jimflow.data-plane.config:config/connected-systems.yaml}") Path file) {
    Path resolved = resolveAgainstHome(file);
    if (!Files.exists(resolved)) {
      return new DataPlaneConfig(List.of(), new SyncRules(List.of(), List.of(), List.of()));
    }
    return new DataPlaneConfigLoader().load(resolved);
  }

  @Bean
  MaintenanceActivitiesImpl maintenanceActivities(Store store, DataPlaneConfig config, MaintenanceProperties properties) {
    Clock clock = Clock.systemUTC();
    return new MaintenanceActivitiesImpl(
        new MaintenanceStore(store, new SyncEngine(config.syncRules()), clock),
        new MaintenanceRuns(clock),
        new SystemOperations(clock),
        properties.settings(),
        id -> config.connectedSystems().stream().anyMatch(s -> s.id().equals(id)));
  }

  /**
   * Example data generation as an activity; uses the data plane's generator when the worker has an
   * {@link ExampleDataGenerator} bean, and refuses requests otherwise.
   */
  @Bean
  DataGenerationActivitiesImpl dataGenerationActivities(ObjectProvider<ExampleDataGenerator> generator) {
    return new DataGenerationActivitiesImpl(
        Optional.ofNullable(generator.getIfAvailable()), resolveAgainstHome(Path.of("")));
  }

  /** Puts the maintenance guard in front of whichever run profile executor the worker has. */
  @Bean
  static BeanPostProcessor guardRunProfiles(ObjectProvider<Store> store, ObjectProvider<DataPlaneConfig> config) {
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
            idOrName -> config.getObject().system(idOrName).map(ConnectedSystemConfig::id).orElse(idOrName));
      }
    };
  }

  static Path resolveAgainstHome(Path path) {
    if (path.isAbsolute()) {
      return path.normalize();
    }
    String home = System.getProperty("jimflow.home", System.getenv("JIMFLOW_HOME"));
    Path base = home == null || home.isBlank() ? Path.of("") : Path.of(home);
    return base.resolve(path).toAbsolutePath().normalize();
  }
}
