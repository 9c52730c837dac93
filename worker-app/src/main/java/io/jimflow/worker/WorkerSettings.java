package io.jimflow.worker;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The worker's own settings ({@code jimflow.worker.*}).
 *
 * @param shutdownGracePeriod how long a SIGTERM waits for running activities to checkpoint and end
 *     before the process exits
 * @param heartbeatFile written with the current UTC time while the worker is healthy, for a
 *     container HEALTHCHECK that tests its age
 * @param heartbeatInterval how often the heartbeat file is written (well below the 60 s threshold)
 * @param registerSearchAttributes register jimflow's missing search attributes at start (dev mode
 *     does) instead of refusing to start without them
 */
@ConfigurationProperties("jimflow.worker")
public record WorkerSettings(
    Duration shutdownGracePeriod,
    Path heartbeatFile,
    Duration heartbeatInterval,
    boolean registerSearchAttributes) {

  public WorkerSettings {
    shutdownGracePeriod =
        shutdownGracePeriod == null ? Duration.ofSeconds(30) : shutdownGracePeriod;
    heartbeatFile = heartbeatFile == null ? Path.of("/tmp/healthcheck") : heartbeatFile;
    heartbeatInterval = heartbeatInterval == null ? Duration.ofSeconds(5) : heartbeatInterval;
  }
}
