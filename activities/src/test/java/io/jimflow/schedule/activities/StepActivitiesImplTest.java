package io.jimflow.schedule.activities;

import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.metrics.JimflowMetrics;
import io.jimflow.schedule.AbandonStepRequest;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepActivities;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepFailureDetails;
import io.jimflow.schedule.StepFailures;
import io.jimflow.schedule.StepHeartbeat;
import io.jimflow.schedule.StepRunRequest;
import io.jimflow.schedule.StepRunResult;
import io.jimflow.schedule.StepStatus;
import io.jimflow.schedule.steps.AbandonedRun;
import io.jimflow.schedule.steps.ExecutableRunner;
import io.jimflow.schedule.steps.ProgramAllowList;
import io.jimflow.schedule.steps.RunProfileExecutor;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.schedule.steps.Scripts;
import io.jimflow.schedule.steps.SqlScriptRunner;
import io.jimflow.schedule.steps.StepMaxima;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.schedule.steps.UnconfiguredRunProfileExecutor;
import io.jimflow.secrets.activities.Secrets;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.temporal.activity.ActivityOptions;
import io.temporal.client.ActivityWorkerShutdownException;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestActivityEnvironment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

public class StepActivitiesImplTest {

  @TempDir Path root;
  private TestActivityEnvironment env;
  private final List<StepHeartbeat> heartbeats = new CopyOnWriteArrayList<>();
  private final FakeRunProfileExecutor runProfiles = new FakeRunProfileExecutor();

  @BeforeEach
  void startEnvironment() {
    env = TestActivityEnvironment.newInstance();
    env.setActivityHeartbeatListener(StepHeartbeat.class, heartbeats::add);
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  @Test
  void theShippedCountScriptResumesFromTheLastCheckpoint() {
    register(Scripts.shippedRoot());
    env.setHeartbeatDetails(new StepHeartbeat(3, 5, "3", 1));

    StepRunResult result = activities().runStep(executable("count.sh", "5", "0.05"));

    assertThat(result.status()).isEqualTo(StepStatus.Complete);
    assertThat(result.message()).contains("counting from 3 to 5").contains("counted to 5");
    assertThat(result.stats()).containsEntry("processed", 5L).containsEntry("total", 5L);
    assertThat(heartbeats)
        .last()
        .satisfies(
            h -> {
              assertThat(h.checkpoint()).isEqualTo("5");
              assertThat(h.processed()).isEqualTo(5);
            });
  }

  @Test
  void aProgramExitingNonZeroFailsTheAttemptNamingTheExitCode() {
    register(Scripts.shippedRoot());

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class,
            () -> activities().runStep(executable("fail.sh", "3", "export refused")));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(StepFailures.EXECUTABLE_FAILED);
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(cause.getOriginalMessage())
        .contains("'fail.sh' exited with code 3")
        .contains("export refused");
    assertThat(cause.getDetails().get(StepFailureDetails.class).attempt()).isEqualTo(1);
  }

  @Test
  void cancellingAStepKillsItsProgramAndEndsCancelled() throws Exception {
    Scripts.write(root, "forever.sh", "echo started; while true; do sleep 1; done");
    register(root);

    CompletableFuture<Throwable> outcome =
        CompletableFuture.supplyAsync(
            () ->
                catchThrowableOfType(
                    RuntimeException.class, () -> activities().runStep(executable("forever.sh"))));
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (heartbeats.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    env.requestCancelActivity();

    Throwable failure = outcome.get(30, TimeUnit.SECONDS);
    assertThat(failure instanceof CanceledFailure || failure.getCause() instanceof CanceledFailure)
        .as("ended by cancellation: %s", failure)
        .isTrue();
    assertThat(ProcessHandle.current().descendants())
        .as("no program of the step is left running")
        .noneMatch(p -> p.info().commandLine().orElse("").contains("forever.sh"));
  }

  @Test
  void aRunProfileStepWithoutADataPlaneIsANonRetryableConfigurationError() {
    env.registerActivitiesImplementations(
        new StepActivitiesImpl(
            new UnconfiguredRunProfileExecutor(),
            new ExecutableRunner(root, ProgramAllowList.anyBelowRoot(), Set.of())));

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class, () -> activities().runStep(runProfile("HR", "Full Import")));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(StepFailures.CONFIGURATION_ERROR);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getOriginalMessage())
        .contains("connected system 'HR'")
        .contains("Full Import");
  }

  @Test
  void aRunProfileStepReportsTheExecutorsOutcomeAndResumesFromItsCheckpoint() {
    register(root);
    env.setHeartbeatDetails(new StepHeartbeat(100, 400, "page-2", 1));

    StepRunResult result = activities().runStep(runProfile("HR", "Delta Import"));

    assertThat(runProfiles.runs)
        .singleElement()
        .satisfies(
            run -> {
              assertThat(run.connectedSystem()).isEqualTo("HR");
              assertThat(run.runProfile()).isEqualTo("Delta Import");
              assertThat(run.executionId()).isEqualTo("exec-1");
              assertThat(run.stepName()).isEqualTo("step");
            });
    assertThat(runProfiles.resumedFrom).containsExactly("page-2");
    assertThat(result.status()).isEqualTo(StepStatus.CompleteWithWarning);
    assertThat(result.runRecordId()).isEqualTo("rr-1");
    assertThat(result.stats()).containsEntry("added", 7L);
    // The SDK throttles heartbeats; the first one goes out at once and shows where it resumed.
    assertThat(heartbeats).first().isEqualTo(new StepHeartbeat(300, 400, "page-3", 1));
  }

  @Test
  void aRunProfileStepAskingForMoreTimeThanTheWorkerAllowsIsStoppedNamingTheClamp() {
    runProfiles.pages = 1_000;
    runProfiles.pageMillis = 50;
    env.registerActivitiesImplementations(
        new StepActivitiesImpl(
            runProfiles,
            new ExecutableRunner(root, ProgramAllowList.anyBelowRoot(), Set.of()),
            SqlScriptRunner.unconfigured("none"),
            Secrets.none(),
            new JimflowMetrics(new SimpleMeterRegistry()),
            new StepMaxima(Duration.ofMillis(500), 10, null, null, null)));

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class, () -> activities().runStep(runProfile("HR", "Full Import")));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(StepFailures.RUN_PROFILE_TIMED_OUT);
    assertThat(cause.isNonRetryable()).isTrue();
    // The activity's own start-to-close timeout (60s) is what the payload asked for.
    assertThat(cause.getOriginalMessage())
        .startsWith("Step 'step' ran longer than 500ms and was stopped after ")
        .endsWith("(timeout 1m clamped to the worker's maximum 500ms)");
    assertThat(runProfiles.lastPage).isBetween(1, 100);
  }

  @Test
  void anExceptionOfTheExecutorIsARetryableFailureWithTheAttempt() {
    runProfiles.failWith = new IllegalStateException("connector crashed");
    register(root);

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class, () -> activities().runStep(runProfile("HR", "Full Import")));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(StepFailures.STEP_FAILED);
    assertThat(cause.isNonRetryable()).isFalse();
    assertThat(cause.getOriginalMessage()).contains("connector crashed");
    assertThat(cause.getDetails().get(StepFailureDetails.class).attempt()).isEqualTo(1);
  }

  @Test
  void anAttemptInterruptedByItsWorkersStopEndsWithItsProgressAndIsNotRetried() {
    runProfiles.failWith = new ActivityWorkerShutdownException();
    register(root);
    env.setHeartbeatDetails(new StepHeartbeat(100, 400, "page-1", 1));

    ActivityFailure failure =
        catchThrowableOfType(
            ActivityFailure.class, () -> activities().runStep(runProfile("HR", "Full Import")));

    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(StepFailures.WORKER_STOPPED);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getDetails().get(StepHeartbeat.class))
        .isEqualTo(new StepHeartbeat(100, 400, "page-1", 1));
  }

  @Test
  void aResumedRunContinuesTheInterruptedAttemptFromItsCheckpoint() {
    register(root);

    StepRunResult result =
        activities()
            .runStep(
                runProfile("HR", "Full Import")
                    .resumingFrom(new StepHeartbeat(200, 400, "page-2", 2)));

    assertThat(runProfiles.resumedFrom).containsExactly("page-2");
    assertThat(runProfiles.runs).singleElement().extracting(RunProfileRun::attempt).isEqualTo(2);
    assertThat(result.attempt()).isEqualTo(2);
  }

  @Test
  void abandoningARunProfileStepFinalizesItsRun() {
    register(root);
    StepRunRequest request = runProfile("AD", "Export");

    String runRecord =
        activities()
            .abandonStep(new AbandonStepRequest(request, 2, StepStatus.Cancelled, "cancelled"));

    assertThat(runRecord).isEqualTo("rr-1");
    assertThat(runProfiles.abandoned)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.run().connectedSystem()).isEqualTo("AD");
              assertThat(a.run().attempt()).isEqualTo(2);
              assertThat(a.status()).isEqualTo(StepStatus.Cancelled);
              assertThat(a.reason()).isEqualTo("cancelled");
            });
  }

  @Test
  void aRunProfileStepRecordsTheWaitForItsResourcesAndNoHostileWait() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    env.registerActivitiesImplementations(
        new StepActivitiesImpl(
            runProfiles,
            new ExecutableRunner(root, ProgramAllowList.anyBelowRoot(), Set.of()),
            SqlScriptRunner.unconfigured("none"),
            Secrets.none(),
            new JimflowMetrics(registry)));

    activities().runStep(runProfile("HR", "Full Import").afterWaiting(Duration.ofSeconds(12)));
    activities().runStep(runProfile("HR", "Full Import").afterWaiting(Duration.ofSeconds(-5)));
    activities().runStep(runProfile("HR", "Full Import").afterWaiting(Duration.ofDays(400_000)));
    activities().runStep(runProfile("HR", "Full Import"));

    Timer waits =
        registry
            .get("jimflow.resource.lock.wait")
            .tags("schedule", "nightly", "system", "HR")
            .timer();
    assertThat(waits.count()).isEqualTo(1);
    assertThat(waits.totalTime(TimeUnit.SECONDS)).isEqualTo(12);
  }

  private void register(Path executablesRoot) {
    env.registerActivitiesImplementations(
        new StepActivitiesImpl(
            runProfiles,
            new ExecutableRunner(executablesRoot, ProgramAllowList.anyBelowRoot(), Set.of())));
  }

  private StepActivities activities() {
    return env.newActivityStub(
        StepActivities.class,
        ActivityOptions.newBuilder()
            .setStartToCloseTimeout(Duration.ofSeconds(60))
            .setHeartbeatTimeout(Duration.ofSeconds(1))
            .build());
  }

  private static StepRunRequest executable(String path, String... args) {
    return request(aStep(0, "step").withStepDefaults().executable(path, args).build());
  }

  private static StepRunRequest runProfile(String system, String profile) {
    return request(aStep(0, "step").withStepDefaults().runProfile(system, profile).build());
  }

  private static StepRunRequest request(StepDefinition step) {
    return new StepRunRequest(
        0, "exec-1", "nightly", new Initiator(InitiatorType.User, "u", "User"), step);
  }

  /** Imports in pages of 100, resuming after the page a lost attempt checkpointed. */
  public static final class FakeRunProfileExecutor implements RunProfileExecutor {
    final List<RunProfileRun> runs = new CopyOnWriteArrayList<>();
    final List<String> resumedFrom = new CopyOnWriteArrayList<>();
    final List<AbandonedRun> abandoned = new CopyOnWriteArrayList<>();
    RuntimeException failWith;
    int pages = 4;
    long pageMillis;
    volatile int lastPage;

    @Override
    public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
      runs.add(run);
      if (failWith != null) {
        throw failWith;
      }
      String checkpoint = progress.lastCheckpoint().orElse("page-0");
      resumedFrom.add(checkpoint);
      for (int page = Integer.parseInt(checkpoint.substring(5)) + 1; page <= pages; page++) {
        if (pageMillis > 0) {
          try {
            Thread.sleep(pageMillis);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        }
        lastPage = page;
        progress.report(page * 100L, pages * 100L, "page-" + page);
      }
      return new RunProfileOutcome(
          StepStatus.CompleteWithWarning, "7 added", Map.of("added", 7L), "rr-1");
    }

    @Override
    public Optional<String> abandon(AbandonedRun run) {
      abandoned.add(run);
      return Optional.of("rr-1");
    }
  }
}
