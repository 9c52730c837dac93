package io.jimflow.worker.dataplane;

import io.jimflow.config.JimflowHome;
import io.jimflow.dataplane.RunProfileExecutorImpl;
import io.jimflow.dataplane.config.DataPlaneConfig;
import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.jimflow.schedule.steps.UnconfiguredRunProfileExecutor;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The identity data plane of a worker: RunProfile steps run for real against the store, with the
 * connected systems of {@code config/connected-systems.yaml}. Without connected systems the worker
 * keeps the unconfigured executor, which fails RunProfile steps with a clear message.
 */
@Configuration
@ConditionalOnProperty(
    prefix = "jimflow.data-plane",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
public class DataPlaneConfiguration {

  /**
   * @param baseDirectory relative file paths of the connected systems resolve against it; the
   *     jimflow home by default
   * @param syncConnections the store connections a synchronisation page may be written on at once;
   *     1 to 8 (other values are bounded to that)
   */
  @Bean
  @Primary
  RunProfileExecutor dataPlaneRunProfileExecutor(
      Store store,
      DataPlaneConfig config,
      Secrets secrets,
      JimflowMetrics metrics,
      @Value("${jimflow.data-plane.base-directory:}") String baseDirectory,
      @Value("${jimflow.sync.connections:1}") int syncConnections) {
    if (config.connectedSystems().isEmpty()) {
      return new UnconfiguredRunProfileExecutor();
    }
    Path base = JimflowHome.resolve(Path.of(baseDirectory));
    return new RunProfileExecutorImpl(
        store, config, base, Clock.systemUTC(), secrets, System::getenv, metrics, syncConnections);
  }
}
