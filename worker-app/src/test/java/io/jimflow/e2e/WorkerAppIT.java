package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TemporalDevServerExtension.class)
class WorkerAppIT {

  @Test
  void aWorkerReportsHealthyWritesAFreshHeartbeatAndExposesTemporalMetrics(E2eEnvironment env)
      throws Exception {
    WorkerProcess worker = env.sharedWorker();

    assertThat(worker.health())
        .startsWith("{\"status\":\"UP\"")
        .contains("\"workersStarted\":true");
    assertThat(worker.get("/actuator/health"))
        .as("without the management token, only the status")
        .startsWith("{\"status\":\"UP\"")
        .doesNotContain("workersStarted");
    assertThat(worker.get("/actuator/health", "a guess")).doesNotContain("workersStarted");
    Instant rewritten =
        HeartbeatFiles.awaitRewritten(worker.heartbeatFile(), Duration.ofSeconds(60));
    assertThat(Duration.between(rewritten, Instant.now())).isLessThan(Duration.ofSeconds(30));
    assertThat(worker.get("/actuator/prometheus")).contains("temporal_");
  }

  @Test
  void sigtermStopsAWorkerWithExitCodeZeroWithinItsGracePeriod(E2eEnvironment env) {
    WorkerProcess worker =
        env.startWorker("sigterm", Map.of("JIMFLOW_WORKER_SHUTDOWN_GRACE_PERIOD", "10s"));

    long started = System.nanoTime();
    int exit = worker.terminate(Duration.ofSeconds(30));

    assertThat(exit).isZero();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
  }

  @Test
  void theServerAnswersVisibilityQueriesOnJimflowSearchAttributes(E2eEnvironment env) {
    // The in-memory test server has no visibility API and no custom search attributes: this needs
    // the real dev server, started with jimflow's attributes registered.
    var response =
        env.stubs()
            .blockingStub()
            .listWorkflowExecutions(
                ListWorkflowExecutionsRequest.newBuilder()
                    .setNamespace(env.namespace())
                    .setQuery(
                        "JimflowScheduleId = 'nightly-hr-sync' AND JimflowStatus = 'Failed'"
                            + " AND JimflowStepGroup >= 0")
                    .build());

    assertThat(response.getExecutionsList()).isEmpty();
  }
}
