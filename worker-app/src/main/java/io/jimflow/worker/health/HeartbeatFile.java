package io.jimflow.worker.health;

import io.jimflow.worker.WorkerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Writes the current UTC time to the heartbeat file every few seconds while actuator health is UP,
 * so a container HEALTHCHECK can restart a worker whose file grows stale (60 s threshold).
 */
@Component
public class HeartbeatFile implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(HeartbeatFile.class);

  private final BooleanSupplier healthy;
  private final Path file;
  private final Duration interval;
  private final Clock clock;
  private ScheduledExecutorService timer;

  @Autowired
  public HeartbeatFile(HealthEndpoint health, WorkerSettings settings) {
    this(
        () -> Status.UP.equals(health.health().getStatus()),
        settings.heartbeatFile(),
        settings.heartbeatInterval(),
        Clock.systemUTC());
  }

  HeartbeatFile(BooleanSupplier healthy, Path file, Duration interval, Clock clock) {
    this.healthy = healthy;
    this.file = file;
    this.interval = interval;
    this.clock = clock;
  }

  @Override
  public void start() {
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "jimflow-heartbeat-file");
              t.setDaemon(true);
              return t;
            });
    long every = interval.toMillis();
    timer.scheduleWithFixedDelay(this::beat, 0, every, TimeUnit.MILLISECONDS);
  }

  void beat() {
    try {
      if (healthy.getAsBoolean()) {
        write(file, clock.instant());
      }
    } catch (RuntimeException | IOException e) {
      log.warn("Could not write heartbeat file {}: {}", file, e.getMessage());
    }
  }

  static void write(Path file, Instant now) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".healthcheck", ".tmp");
    Files.writeString(tmp, now.toString() + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  @Override
  public void stop() {
    if (timer != null) {
      timer.shutdownNow();
      timer = null;
    }
  }

  @Override
  public boolean isRunning() {
    return timer != null;
  }

  /** Stops first, so the file goes stale as soon as shutdown begins. */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE + 1;
  }
}
