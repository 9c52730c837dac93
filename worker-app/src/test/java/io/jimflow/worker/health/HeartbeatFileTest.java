package io.jimflow.worker.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.testing.SettableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeartbeatFileTest {

  @TempDir Path dir;

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-23T08:00:00Z"));
  private final AtomicBoolean healthy = new AtomicBoolean(true);

  @Test
  void aHealthyWorkerRewritesTheFileWithTheCurrentTimeOnEveryBeatOfItsTimer() throws Exception {
    Path file = dir.resolve("run/healthcheck");
    HeartbeatFile heartbeat = new HeartbeatFile(healthy::get, file, Duration.ofMillis(20), clock);
    heartbeat.start();
    try {
      awaitContent(file, "2026-11-23T08:00:00Z");
      clock.set(Instant.parse("2026-11-23T08:00:05Z"));
      awaitContent(file, "2026-11-23T08:00:05Z");
      clock.set(Instant.parse("2026-11-23T08:00:10Z"));
      awaitContent(file, "2026-11-23T08:00:10Z");
    } finally {
      heartbeat.stop();
    }
    assertThat(heartbeat.isRunning()).isFalse();
  }

  @Test
  void anUnhealthyWorkerStopsRewritingSoTheFileGoesStale() throws Exception {
    Path file = dir.resolve("healthcheck");
    HeartbeatFile heartbeat = new HeartbeatFile(healthy::get, file, Duration.ofHours(1), clock);
    heartbeat.beat();
    healthy.set(false);
    clock.set(Instant.parse("2026-11-23T08:05:00Z"));
    heartbeat.beat();

    assertThat(Files.readString(file).strip()).isEqualTo("2026-11-23T08:00:00Z");
  }

  private static void awaitContent(Path file, String expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String last = null;
    while (System.nanoTime() < deadline) {
      last = Files.exists(file) ? Files.readString(file).strip() : null;
      if (expected.equals(last)) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError(
        "heartbeat file never said " + expected + " within 30 s; last: " + last);
  }
}
