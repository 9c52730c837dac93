package io.jimflow.worker.dataplane;

import io.jimflow.dataplane.RunProfileExecutorImpl;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.dataplane.config.DataPlaneConfigLoader;
import io.jimflow.steps.AbandonedRun;
import io.jimflow.steps.RunProfileExecutor;
import io.jimflow.steps.RunProfileOutcome;
import io.jimflow.steps.RunProfileRun;
import io.jimflow.steps.StepProgress;
import io.jimflow.steps.UnconfiguredRunProfileExecutor;
import io.jimflow.store.Store;
import io.jimflow.store.StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The identity data plane of a worker: RunProfile steps run for real against the store, with the
 * connected systems of {@code config/connected-systems.yaml} (validated at startup). Without that
 * file the worker keeps the unconfigured executor, which fails RunProfile steps with a clear message.
 */
@Configuration
@ConditionalOnProperty(prefix = "jimflow.data-plane", name = "enabled", havingValue = "true", matchIfMissing = true)
public class DataPlaneConfiguration {

  private static final Logger log = LoggerFactory.getLogger(DataPlaneConfiguration.class);

  @Bean
  @Primary
  RunProfileExecutor dataPlaneRunProfileExecutor(
      @Value("${jimflow.data-plane.config:config/connected-systems.yaml}") String configFile,
      @Value("${jimflow.data-plane.base-directory:}") String baseDirectory,
      @Value("${jimflow.store.url:}") String url,
      @Value("${jimflow.store.user:}") String user,
      @Value("${jimflow.store.password:}") String password,
      @Value("${jimflow.store.max-pool-size:8}") int maxPoolSize) {
    Path home = home();
    Path config = home.resolve(configFile).normalize();
    if (!Files.isRegularFile(config)) {
      log.info("No data plane configuration at {}: RunProfile steps are not available", config);
      return new UnconfiguredRunProfileExecutor();
    }
    DataPlaneConfig dataPlane = new DataPlaneConfigLoader().load(config);
    StoreSettings store = url.isBlank()
        ? StoreSettings.embedded(home.resolve("data"))
        : new StoreSettings(url, user, password, maxPoolSize);
    Path base = baseDirectory.isBlank() ? home : home.resolve(baseDirectory).normalize();
    log.info("Data plane: {} connected systems from {}, store {}", dataPlane.connectedSystems().size(), config, store.url());
    return new LazyStoreExecutor(store, dataPlane, base);
  }

  private static Path home() {
    String home = System.getProperty("jimflow.home", System.getenv("JIMFLOW_HOME"));
    return (home == null || home.isBlank() ? Path.of("") : Path.of(home)).toAbsolutePath().normalize();
  }

  /**
   * Opens the store (and migrates it) on the first run, not at startup: a worker that never runs a
   * run profile never locks the embedded database file.
   */
  static final class LazyStoreExecutor implements RunProfileExecutor, AutoCloseable {
    private final StoreSettings settings;
    private final DataPlaneConfig config;
    private final Path baseDirectory;
    private Store store;
    private RunProfileExecutor delegate;

    LazyStoreExecutor(StoreSettings settings, DataPlaneConfig config, Path baseDirectory) {
      this.settings = settings;
      this.config = config;
      this.baseDirectory = baseDirectory;
    }

    private synchronized RunProfileExecutor delegate() {
      if (delegate == null) {
        store = Store.open(settings);
        delegate = new RunProfileExecutorImpl(store, config, baseDirectory, Clock.systemUTC());
      }
      return delegate;
    }

    @Override
    public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
      return delegate().execute(run, progress);
    }

    @Override
    public void abandon(AbandonedRun abandoned) {
      delegate().abandon(abandoned);
    }

    @Override
    public synchronized void close() {
      if (store != null) {
        store.close();
      }
    }
  }
}
