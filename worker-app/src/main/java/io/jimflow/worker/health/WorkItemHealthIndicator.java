package io.jimflow.worker.health;

import io.jimflow.workitem.activities.RunawayHandlers;
import java.util.List;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * DOWN while a work item handler that was killed (or a WorkItemFinished that overran) ignored its
 * interrupt and still runs on a thread of this worker: the run activity gave its slot back without
 * it, so the worker looks free but is not. The heartbeat file goes stale with it, so a container
 * healthcheck restarts the worker; it comes UP again by itself once the thread ends.
 */
@Component("workItems")
public class WorkItemHealthIndicator implements HealthIndicator {

  private final RunawayHandlers runaways;

  public WorkItemHealthIndicator(RunawayHandlers runaways) {
    this.runaways = runaways;
  }

  @Override
  public Health health() {
    List<RunawayHandlers.Runaway> current = runaways.current();
    if (current.isEmpty()) {
      return Health.up().build();
    }
    return Health.down()
        .withDetail(
            "runawayHandlers", current.stream().map(RunawayHandlers.Runaway::describe).toList())
        .build();
  }
}
