package io.jimflow.worker.health;

import io.jimflow.worker.WorkerLifecycle;
import io.temporal.serviceclient.WorkflowServiceStubs;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/** UP while the Temporal server answers its health check and this process's workers are polling. */
@Component("temporal")
public class TemporalHealthIndicator implements HealthIndicator {

  private final WorkflowServiceStubs stubs;
  private final WorkerLifecycle workers;

  public TemporalHealthIndicator(WorkflowServiceStubs stubs, WorkerLifecycle workers) {
    this.stubs = stubs;
    this.workers = workers;
  }

  @Override
  public Health health() {
    String target = stubs.getOptions().getTarget();
    boolean started = workers.workersStarted();
    try {
      var check = stubs.healthCheck();
      boolean serving =
          check.getStatus() == io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING;
      Health.Builder health = serving && started ? Health.up() : Health.down();
      return health
          .withDetail("target", target)
          .withDetail("server", check.getStatus().name())
          .withDetail("workersStarted", started)
          .build();
    } catch (RuntimeException e) {
      return Health.down()
          .withDetail("target", target)
          .withDetail("server", "unreachable: " + e.getMessage())
          .withDetail("workersStarted", started)
          .build();
    }
  }
}
