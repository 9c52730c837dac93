package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.resource.ResourceClaim;
import io.jimflow.resource.ResourceLockWorkflow;
import io.jimflow.resource.ResourceRelease;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * Resource locks know runs, not just workflow ids: {@code jimflow systems clear} terminated while
 * it holds its system, then started again under the same workflow id, completes (the lock finds the
 * terminated run gone by its next probe), and a release signal forged by another client while the
 * holder runs changes nothing.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SystemClearRestartIT {

  /** Enough people that clearing them takes a while: the test terminates the clear mid-way. */
  private static final int PEOPLE = 30_000;

  private static final String HR = "HR System";

  @Test
  void aForgedReleaseChangesNothingAndAClearTerminatedMidWayCanBeRunAgain(E2eEnvironment env)
      throws Exception {
    String namespace = env.newNamespace("clear-restart");
    WorkflowClient client = env.client(namespace);
    Path home = env.newDirectory("clear-restart");
    env.startWorker(
        "clear-restart",
        E2eEnvironment.withOwnStore(
            Map.of(
                "TEMPORAL_NAMESPACE",
                namespace,
                "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
                home.toString(),
                "JIMFLOW_MAINTENANCE_DESTRUCTIVE_TASKS_ENABLED",
                "true")));
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(3).write(PEOPLE, out, n -> {});
    }
    ScheduleDefinition definition =
        aSchedule("clear-restart")
            .with(
                aStep(0, "HR System - Full Import")
                    .withStepDefaults()
                    .runProfile(HR, "Full Import")
                    .timeout(Duration.ofMinutes(20)))
            .definition();
    String importId = "clear-restart/" + UUID.randomUUID();
    ScheduleExecutionWorkflow importing =
        ManualExecutions.start(client, importId, definition, ManualExecutions.TESTER);
    ResourceLockWorkflow lock =
        client.newWorkflowStub(ResourceLockWorkflow.class, Resources.lockWorkflowId(HR));
    ResourceClaim importClaim = LockWatch.awaitHolder(lock, importId);

    // A plain client sends the holder's own claim id while the import runs.
    client
        .newUntypedWorkflowStub(Resources.lockWorkflowId(HR))
        .signal(ResourceLockWorkflow.RELEASE, new ResourceRelease(importClaim.claimId()));
    LockWatch.awaitStillClaimsAnswered(client, Resources.lockWorkflowId(HR));

    assertThat(WorkflowStub.fromTyped(importing).describe().getStatus())
        .as("the import still runs, so the check was made while it held the system")
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(lock.state().holder())
        .as("the forged release changed nothing")
        .isEqualTo(importClaim);
    assertThat(
            WorkflowStub.fromTyped(importing)
                .getResult(10, TimeUnit.MINUTES, ExecutionResult.class)
                .status())
        .isEqualTo(ExecutionStatus.Complete);

    Cli first = cli(env, namespace, "systems", "clear", "hr", "--no-wait");
    assertThat(first.exit()).as(first.toString()).isZero();
    // "Started <workflow id>."
    String clearId = first.out().strip().replaceFirst("^Started ", "").replaceFirst("\\.$", "");
    ResourceClaim held = LockWatch.awaitHolder(lock, clearId);
    WorkflowStub firstRun = client.newUntypedWorkflowStub(clearId);
    firstRun.terminate("test: terminated mid-way");
    var terminated = firstRun.describe();
    assertThat(terminated.getStatus())
        .as("the clear was still running when it was terminated; raise PEOPLE if it was not")
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_TERMINATED);
    assertThat(held.holderRunId()).isEqualTo(terminated.getExecution().getRunId());

    Cli again = cli(env, namespace, "systems", "clear", "hr");

    assertThat(again.exit()).as(again.toString()).isZero();
    // The second clear's release is a signal the lock handles in its own next task, which may come
    // after the CLI has seen the clear complete: wait for it rather than read the state once.
    awaitFree(lock);
  }

  private static void awaitFree(ResourceLockWorkflow lock) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    ResourceClaim holder = lock.state().holder();
    while (holder != null && System.nanoTime() < deadline) {
      Thread.sleep(20);
      holder = lock.state().holder();
    }
    assertThat(holder).as("the lock is free once the second clear has completed").isNull();
  }

  private static Cli cli(E2eEnvironment env, String namespace, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", namespace));
    return new Cli(cli.execute(full.toArray(String[]::new)), out.toString(), err.toString());
  }

  private record Cli(int exit, String out, String err) {}
}
