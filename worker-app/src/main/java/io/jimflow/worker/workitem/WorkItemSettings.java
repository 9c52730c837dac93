package io.jimflow.worker.workitem;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Work item settings ({@code jimflow.work-items.*}); the number of execution slots is the run queue
 * worker's {@code capacity.max-concurrent-activity-executors} in application.yaml.
 *
 * @param watchInterval how often a running item heartbeats and looks for WorkItemShouldFinish; keep
 *     it well below the items' heartbeat timeout (default 30 s)
 */
@ConfigurationProperties("jimflow.work-items")
public record WorkItemSettings(Duration watchInterval) {

  public WorkItemSettings {
    watchInterval = watchInterval == null ? Duration.ofSeconds(2) : watchInterval;
  }
}
