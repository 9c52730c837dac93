package io.jimflow.worker.store;

import io.jimflow.config.JimflowHome;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.runrecords.activities.RunRecordActivitiesImpl;
import io.jimflow.schedule.activities.ExecutionRecordActivitiesImpl;
import io.jimflow.store.Store;
import io.jimflow.store.StoreSettings;
import io.jimflow.sync.SyncRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one store and the one connected-systems configuration of a worker, shared by the run profile
 * executor and the maintenance activities.
 *
 * <p>Store: a PostgreSQL, {@code jimflow.store.url} (user, password, max-pool-size; e.g. {@code
 * JIMFLOW_STORE_URL=jdbc:postgresql://…}) or, by default, the embedded PostgreSQL that {@code
 * ./jimflow dev} runs on this machine ({@link StoreSettings#embedded()}). It is opened and migrated
 * on first use, so a worker that never runs a data plane step starts without it.
 */
@Configuration
public class StoreConfiguration {

  private static final Logger log = LoggerFactory.getLogger(StoreConfiguration.class);

  @Bean(destroyMethod = "close")
  Store jimflowStore(
      @Value("${jimflow.store.url:}") String url,
      @Value("${jimflow.store.user:}") String user,
      @Value("${jimflow.store.password:}") String password,
      @Value("${jimflow.store.max-pool-size:8}") int maxPoolSize) {
    StoreSettings settings;
    if (url.isBlank()) {
      settings = StoreSettings.embedded();
      Path earlierH2 = JimflowHome.resolve(Path.of("data", "jimflow.mv.db"));
      if (Files.exists(earlierH2)) {
        log.warn(
            "{} is the H2 store of an earlier jimflow version and is no longer read (the store is"
                + " PostgreSQL now, docs/store.md); delete it when you no longer need it",
            earlierH2);
      }
    } else {
      settings = new StoreSettings(url, user, password, maxPoolSize);
    }
    return new Store(new LazyStoreDataSource(settings));
  }

  /** Run records and run items for the CLI and programs, read on this worker. */
  @Bean
  RunRecordActivitiesImpl runRecordActivities(Store store) {
    return new RunRecordActivitiesImpl(store, Clock.systemUTC());
  }

  /** Writes the execution history (executions and their steps) of this worker's executions. */
  @Bean
  ExecutionRecordActivitiesImpl executionRecordActivities(Store store, JimflowMetrics metrics) {
    return new ExecutionRecordActivitiesImpl(store, Clock.systemUTC(), metrics);
  }

  /**
   * The connected systems and sync rules of {@code jimflow.data-plane.config}, validated at startup
   * (a bad file stops the worker with every problem, file and line); empty without the file.
   */
  @Bean
  DataPlaneConfig dataPlaneConfig(
      @Value("${jimflow.data-plane.config:config/connected-systems.yaml}") Path file) {
    Path resolved = JimflowHome.resolve(file);
    if (!Files.isRegularFile(resolved)) {
      log.info("No data plane configuration at {}: RunProfile steps are not available", resolved);
      return new DataPlaneConfig(List.of(), new SyncRules(List.of(), List.of(), List.of()));
    }
    DataPlaneConfig config = new DataPlaneConfigLoader().load(resolved);
    log.info(
        "Data plane: {} connected systems from {}", config.connectedSystems().size(), resolved);
    return config;
  }
}
