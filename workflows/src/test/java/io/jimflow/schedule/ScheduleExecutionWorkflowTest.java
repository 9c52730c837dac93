package io.jimflow.schedule;

import static io.jimflow.schedule.FakeStepActivities.endsWith;
import static io.jimflow.schedule.FakeStepActivities.fails;
import static io.jimflow.schedule.FakeStepActivities.failsWithConfigurationError;
import static io.jimflow.schedule.FakeStepActivities.runsUntil;
import static io.jimflow.schedule.FakeStepActivities.sleeps;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.testing.FakeResourceActivities;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.testing.ScheduleBuilders.ScheduleBuilder;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.sdk.v1.WorkflowMetadata;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.SearchAttributes;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScheduleExecutionWorkflowTest {

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private final FakeStepActivities steps = new FakeStepActivities();
  private final RecordingExecutionRecords records = new RecordingExecutionRecords();
  private final RecordingNotifications notifications = new RecordingNotifications();
  private int runs;

  @BeforeEach
  void startEnvironment() {
    env = JimflowTestEnvironment.newEnvironment();
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(
        ScheduleExecutionWorkflowImpl.class,
        ResourceLockWorkflowImpl.class,
        NotificationWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        steps, records, new FakeResourceActivities(), notifications);
    env.start();
    client = env.getWorkflowClient();
  }

  /** Released when a test ends, for activities that must stay silent until then. */
  private final CountDownLatch testOver = new CountDownLatch(1);

  @AfterEach
  void stopEnvironment() {
    testOver.countDown();
    env.close();
  }

  @Test
  void groupsRunInAscendingIndexOrderAndEveryStepCompletes() {
    ExecutionResult result =
        run(
            aSchedule("order")
                .with(aStep(20, "last"), aStep(0, "first"), aStep(5, "a"), aStep(5, "b")));

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(steps.started.get(0)).isEqualTo("first");
    assertThat(steps.started.subList(1, 3)).containsExactlyInAnyOrder("a", "b");
    assertThat(steps.started.get(3)).isEqualTo("last");
    assertThat(steps.ended.indexOf("a")).isLessThan(steps.started.indexOf("last"));
    assertThat(steps.ended.indexOf("b")).isLessThan(steps.started.indexOf("last"));
    assertThat(result.steps())
        .extracting(StepOutcome::name, StepOutcome::status, StepOutcome::attempts)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("first", StepStatus.Complete, 1),
            org.assertj.core.groups.Tuple.tuple("a", StepStatus.Complete, 1),
            org.assertj.core.groups.Tuple.tuple("b", StepStatus.Complete, 1),
            org.assertj.core.groups.Tuple.tuple("last", StepStatus.Complete, 1));
    assertThat(result.steps())
        .allSatisfy(s -> assertThat(s.endedAt()).isAfterOrEqualTo(s.startedAt()));
    assertThat(result.message()).isEqualTo("All 4 step(s) complete");
  }

  @Test
  void anExecutionThatFailsOrEndsWithErrorsNotifiesOnceNamingTheFailedStep() throws Exception {
    steps.on("export", fails("target unreachable"));
    ExecutionResult failed =
        runToResult(aSchedule("nightly").with(aStep(0, "import"), aStep(1, "export")));
    steps.on("check", fails("minor"));
    ExecutionResult tolerated =
        runToResult(
            aSchedule("scripts")
                .with(aStep(0, "count"), aStep(0, "check").continueOnFailure(true)));
    run(aSchedule("fine").with(aStep(0, "count")));

    List<Notification> sent = notifications.await(2);
    assertThat(sent)
        .extracting(Notification::scheduleId, Notification::status, Notification::steps)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "nightly", ExecutionStatus.Failed, List.of("export")),
            org.assertj.core.groups.Tuple.tuple(
                "scripts", ExecutionStatus.CompleteWithError, List.of("check")));
    assertThat(sent)
        .allSatisfy(n -> assertThat(n.event()).isEqualTo(Notification.Event.ExecutionEnded));
    assertThat(
            sent.stream()
                .filter(n -> n.scheduleId().equals("nightly"))
                .findFirst()
                .orElseThrow()
                .message())
        .isEqualTo(failed.message());
    assertThat(tolerated.status()).isEqualTo(ExecutionStatus.CompleteWithError);
    // An execution starts its notification before it ends: the one that completed started none.
    assertThat(client.newUntypedWorkflowStub("nightly-1/notify").describe()).isNotNull();
    assertThatThrownBy(() -> client.newUntypedWorkflowStub("fine-3/notify").describe())
        .isInstanceOf(io.temporal.client.WorkflowNotFoundException.class);
  }

  @Test
  void aNotificationThatCannotBeDeliveredLeavesTheOutcomeAsItWas() {
    notifications.refuse = true;
    steps.on("export", fails("target unreachable"));

    ExecutionResult result =
        runToResult(aSchedule("nightly").with(aStep(0, "import"), aStep(1, "export")));

    assertThat(result.status()).isEqualTo(ExecutionStatus.Failed);
    assertThat(result.message()).contains("'export' FailedWithError");
  }

  static Stream<Arguments> continueOnFailureMatrix() {
    return Stream.of(
        // schedule policy, step's continueOnFailure, failing step runs alongside a sibling,
        // expected
        Arguments.of(null, null, false, ExecutionStatus.Failed),
        Arguments.of(FailurePolicy.STOP, null, false, ExecutionStatus.Failed),
        Arguments.of(FailurePolicy.STOP, true, false, ExecutionStatus.CompleteWithError),
        Arguments.of(FailurePolicy.STOP, false, false, ExecutionStatus.Failed),
        Arguments.of(FailurePolicy.CONTINUE, null, false, ExecutionStatus.CompleteWithError),
        Arguments.of(FailurePolicy.CONTINUE, true, false, ExecutionStatus.CompleteWithError),
        Arguments.of(FailurePolicy.CONTINUE, false, false, ExecutionStatus.Failed),
        Arguments.of(FailurePolicy.STOP, null, true, ExecutionStatus.Failed),
        Arguments.of(FailurePolicy.STOP, true, true, ExecutionStatus.CompleteWithError),
        Arguments.of(FailurePolicy.CONTINUE, null, true, ExecutionStatus.CompleteWithError),
        Arguments.of(FailurePolicy.CONTINUE, false, true, ExecutionStatus.Failed));
  }

  @ParameterizedTest(name = "schedule {0}, step continueOnFailure {1}, parallel {2} -> {3}")
  @MethodSource("continueOnFailureMatrix")
  void aFailedStepStopsOrContinuesTheExecutionByItsPolicy(
      FailurePolicy schedulePolicy,
      Boolean continueOnFailure,
      boolean parallel,
      ExecutionStatus expected) {
    steps.on("export", fails("target unreachable"));
    ScheduleBuilder schedule =
        aSchedule("matrix")
            .onStepFailure(schedulePolicy)
            .with(aStep(0, "import"), aStep(1, "export").continueOnFailure(continueOnFailure));
    if (parallel) {
      steps.on("sibling", sleeps(Duration.ofMillis(300)));
      schedule.with(aStep(1, "sibling"));
    }
    schedule.with(aStep(2, "confirm"));

    ExecutionResult result = runToResult(schedule);

    assertThat(result.status()).isEqualTo(expected);
    assertThat(outcome(result, "import").status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome(result, "export").status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(outcome(result, "export").message()).contains("target unreachable");
    if (parallel) {
      assertThat(outcome(result, "sibling").status())
          .as("a failing step never cancels its siblings")
          .isEqualTo(StepStatus.Complete);
    }
    if (expected == ExecutionStatus.Failed) {
      assertThat(outcome(result, "confirm").status()).isEqualTo(StepStatus.Skipped);
      assertThat(outcome(result, "confirm").attempts()).isZero();
      assertThat(steps.started).doesNotContain("confirm");
      assertThat(result.message())
          .contains("'export' FailedWithError (target unreachable)")
          .contains("not continue on failure")
          .contains("1 later step(s) skipped");
    } else {
      assertThat(outcome(result, "confirm").status()).isEqualTo(StepStatus.Complete);
      assertThat(result.message()).contains("'export' FailedWithError");
    }
  }

  @Test
  void aStepThatContinuesDoesNotSaveItsGroupWhenASiblingStops() {
    steps.on("tolerated", fails("minor")).on("fatal", fails("major"));

    ExecutionResult result =
        runToResult(
            aSchedule("mix")
                .onStepFailure(FailurePolicy.CONTINUE)
                .with(
                    aStep(0, "tolerated").continueOnFailure(true),
                    aStep(0, "fatal").continueOnFailure(false),
                    aStep(0, "fine"),
                    aStep(1, "never")));

    assertThat(result.status()).isEqualTo(ExecutionStatus.Failed);
    assertThat(result.message())
        .contains("'fatal' FailedWithError (major)")
        .doesNotContain("'tolerated'");
    assertThat(outcome(result, "fine").status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome(result, "never").status()).isEqualTo(StepStatus.Skipped);
  }

  @Test
  void stepsThatEndWithErrorItemsMakeTheExecutionCompleteWithErrorButDoNotStopIt() {
    steps
        .on("warn", endsWith(StepStatus.CompleteWithWarning, "2 warnings"))
        .on("errors", endsWith(StepStatus.CompleteWithError, "3 objects in error"));

    ExecutionResult result =
        runToResult(
            aSchedule("statuses").with(aStep(0, "warn"), aStep(1, "errors"), aStep(2, "after")));

    // One bad object never stops a schedule: the steps after it handle the other objects.
    assertThat(result.status()).isEqualTo(ExecutionStatus.CompleteWithError);
    assertThat(outcome(result, "warn").status()).isEqualTo(StepStatus.CompleteWithWarning);
    assertThat(result.message()).contains("'errors' CompleteWithError (3 objects in error)");
    assertThat(outcome(result, "after").status()).isEqualTo(StepStatus.Complete);
  }

  @Test
  void aFailedExecutionFailsTheWorkflowWithTheResultInItsDetails() {
    steps.on("broken", fails("disk full"));
    WorkflowStub stub = start(aSchedule("fails").with(aStep(0, "broken"), aStep(1, "next")));

    WorkflowFailedException failure =
        catchThrowableOfType(
            WorkflowFailedException.class, () -> stub.getResult(ExecutionResult.class));

    assertThat(failure.getCause()).isInstanceOf(ApplicationFailure.class);
    ApplicationFailure cause = (ApplicationFailure) failure.getCause();
    assertThat(cause.getType()).isEqualTo(StepFailures.EXECUTION_FAILED);
    assertThat(cause.isNonRetryable()).isTrue();
    assertThat(cause.getOriginalMessage()).contains("'broken' FailedWithError (disk full)");
    ExecutionResult result = cause.getDetails().get(ExecutionResult.class);
    assertThat(result.status()).isEqualTo(ExecutionStatus.Failed);
    assertThat(result.steps())
        .extracting(StepOutcome::status)
        .containsExactly(StepStatus.FailedWithError, StepStatus.Skipped);
  }

  @Test
  void theStoreHoldsTheExecutionAndEveryStepAsItEndedWithOneWritePerGroupOfASecondOrMore() {
    steps.on("export", fails("target unreachable"));
    // Groups that take a second or more are published one by one, as they start.
    steps.on("import", sleeps(Duration.ofMillis(1100)));
    steps.on("sibling", sleeps(Duration.ofMillis(1100)));
    WorkflowStub stub =
        start(
            aSchedule("history")
                .with(
                    aStep(0, "import"),
                    aStep(1, "export").continueOnFailure(true),
                    aStep(1, "sibling"),
                    aStep(2, "confirm")));
    ExecutionResult result = stub.getResult(ExecutionResult.class);

    ExecutionRecord stored = records.stored(stub.getExecution().getWorkflowId());
    assertThat(stored.status()).isEqualTo(ExecutionStatus.CompleteWithError);
    assertThat(stored.message()).isEqualTo(result.message());
    assertThat(stored.scheduleId()).isEqualTo("history");
    assertThat(stored.initiator()).isNotNull();
    assertThat(stored.startedAt()).isEqualTo(result.startedAt());
    assertThat(stored.endedAt()).isNotNull();
    assertThat(stored.stepGroups()).isEqualTo(3);
    assertThat(stored.steps())
        .extracting(
            StepRecord::name,
            StepRecord::status,
            StepRecord::attempts,
            StepRecord::startedAt,
            StepRecord::endedAt)
        .containsExactlyElementsOf(
            result.steps().stream()
                .map(
                    o ->
                        org.assertj.core.groups.Tuple.tuple(
                            o.name(), o.status(), o.attempts(), o.startedAt(), o.endedAt()))
                .toList());
    assertThat(stored.steps().get(1).message()).contains("target unreachable");
    assertThat(stored.steps()).extracting(StepRecord::type).containsOnly("Executable");
    // Started, before each later group, ended: the history grows with groups, not with steps.
    assertThat(records.writes()).hasSize(1 + 2 + 1);
    // Schedule, status and group 1; group 2; group 3; the final status.
    assertThat(upserts(stub)).isEqualTo(1 + 2 + 1);
  }

  @Test
  void groupsOfInstantStepsArePublishedAtMostOnceASecondAndTheLastGroupWithTheEnd() {
    ScheduleBuilder schedule = aSchedule("instant");
    for (int g = 0; g < 40; g++) {
      schedule.with(aStep(g, "step " + g));
    }
    WorkflowStub stub = start(schedule);
    ExecutionResult result = stub.getResult(ExecutionResult.class);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    // One upsert opens, one closes, at most one a second in between: under 5 as long as the 40
    // groups take less than 3 s (about 0.5 s here), and still correct on a slower machine.
    long seconds = workflowSeconds(stub);
    assertThat(upserts(stub)).isLessThanOrEqualTo(2 + seconds).isLessThan(40);
    assertThat(groupAttribute(stub)).isEqualTo(40L);
    assertThat(statusAttribute(stub)).isEqualTo("Complete");
    // The store's copy is written on the same beat, and still holds every step at the end.
    assertThat((long) records.writes().size()).isLessThanOrEqualTo(2 + seconds);
    ExecutionRecord stored = records.stored(stub.getExecution().getWorkflowId());
    assertThat(stored.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(stored.steps()).hasSize(40).allMatch(r -> r.status() == StepStatus.Complete);
  }

  @Test
  void aCancelledExecutionStillRecordsItsEndAndItsCancelledAndSkippedSteps() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    steps.on("long", runsUntil(never, Duration.ofSeconds(60)));
    WorkflowStub stub =
        start(aSchedule("cancel-history").with(aStep(0, "long"), aStep(1, "later")));
    awaitProgress(stub, p -> p.steps().get(0).status() == StepStatus.Running);
    awaitCondition(() -> steps.started.contains("long"));

    stub.cancel();

    catchThrowableOfType(
        WorkflowFailedException.class, () -> stub.getResult(ExecutionResult.class));
    ExecutionRecord stored = records.stored(stub.getExecution().getWorkflowId());
    assertThat(stored.status()).isEqualTo(ExecutionStatus.Cancelled);
    assertThat(stored.steps())
        .extracting(StepRecord::name, StepRecord::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("long", StepStatus.Cancelled),
            org.assertj.core.groups.Tuple.tuple("later", StepStatus.Skipped));
  }

  @Test
  void aCancelledExecutionNamesItsCancellerInItsMessageAndRecordWithTheTimeItEnded()
      throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    steps.on("long", runsUntil(never, Duration.ofSeconds(60)));
    WorkflowStub stub = start(aSchedule("cancelled-by").with(aStep(0, "long"), aStep(1, "later")));
    awaitProgress(stub, p -> p.steps().get(0).status() == StepStatus.Running);
    awaitCondition(() -> steps.started.contains("long"));

    stub.cancel(
        Canceller.reason(
            new ScheduleExecutionInput.Initiator(
                ScheduleExecutionInput.InitiatorType.User, "alice", "alice")));

    catchThrowableOfType(
        WorkflowFailedException.class, () -> stub.getResult(ExecutionResult.class));
    String expected = "Cancelled by User alice during step group 1 of 2:";
    assertThat(stub.query("progress", ExecutionProgress.class).message()).startsWith(expected);
    ExecutionRecord stored = records.stored(stub.getExecution().getWorkflowId());
    assertThat(stored.message()).startsWith(expected);
    assertThat(stored.cancelledBy())
        .isEqualTo(
            new ScheduleExecutionInput.Initiator(
                ScheduleExecutionInput.InitiatorType.User, "alice", "alice"));
    assertThat(stored.endedAt()).isNotNull().isAfterOrEqualTo(stored.steps().get(0).endedAt());
  }

  @Test
  void aCancelRequestThatNamesNoCancellerLeavesTheCancellerUnnamed() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    steps.on("long", runsUntil(never, Duration.ofSeconds(60)));
    WorkflowStub stub = start(aSchedule("cancelled-by-nobody").with(aStep(0, "long")));
    awaitProgress(stub, p -> p.steps().get(0).status() == StepStatus.Running);
    awaitCondition(() -> steps.started.contains("long"));

    stub.cancel("Cancelled by Admin\n<script>alert(1)</script>");

    catchThrowableOfType(
        WorkflowFailedException.class, () -> stub.getResult(ExecutionResult.class));
    ExecutionRecord stored = records.stored(stub.getExecution().getWorkflowId());
    assertThat(stored.status()).isEqualTo(ExecutionStatus.Cancelled);
    assertThat(stored.cancelledBy()).isNull();
    assertThat(stored.message()).startsWith("Cancelled during step group 1 of 1:");
  }

  @Test
  void cancellingDuringAGroupCancelsItsRunningStepsAndSkipsTheRest() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    steps
        .on("long-a", runsUntil(never, Duration.ofSeconds(60)))
        .on("long-b", runsUntil(never, Duration.ofSeconds(60)));
    WorkflowStub stub =
        start(
            aSchedule("cancel")
                .with(
                    aStep(0, "quick"), aStep(1, "long-a"), aStep(1, "long-b"), aStep(2, "later")));
    awaitProgress(
        stub, p -> p.steps().stream().filter(s -> s.status() == StepStatus.Running).count() == 2);
    awaitCondition(() -> steps.started.containsAll(List.of("long-a", "long-b")));

    stub.cancel();

    WorkflowFailedException failure =
        catchThrowableOfType(
            WorkflowFailedException.class, () -> stub.getResult(ExecutionResult.class));
    assertThat(failure.getCause()).isInstanceOf(CanceledFailure.class);
    assertThat(steps.cancelled)
        .as("each running step saw the cancellation and ended before the workflow did")
        .containsExactlyInAnyOrder("long-a", "long-b");
    ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
    assertThat(progress.status()).isEqualTo(ExecutionStatus.Cancelled);
    assertThat(progress.steps())
        .extracting(StepOutcome::name, StepOutcome::status)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("quick", StepStatus.Complete),
            org.assertj.core.groups.Tuple.tuple("long-a", StepStatus.Cancelled),
            org.assertj.core.groups.Tuple.tuple("long-b", StepStatus.Cancelled),
            org.assertj.core.groups.Tuple.tuple("later", StepStatus.Skipped));
    assertThat(steps.started).doesNotContain("later");
    assertThat(statusAttribute(stub)).isEqualTo("Cancelled");
  }

  @Test
  void aStepRunningPastItsTimeoutFailsWithTheTimeoutNamed() {
    steps.on("slow", runsUntil(new CountDownLatch(1), Duration.ofSeconds(8)));

    ExecutionResult result =
        runToResult(
            aSchedule("timeout")
                .with(aStep(0, "slow").timeout(Duration.ofSeconds(2)), aStep(1, "after")));

    assertThat(result.status()).isEqualTo(ExecutionStatus.Failed);
    assertThat(outcome(result, "slow").status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(outcome(result, "slow").message()).contains("timed out after PT2S");
    assertThat(outcome(result, "after").status()).isEqualTo(StepStatus.Skipped);
  }

  @Test
  void aStepsTimeoutBoundsAllItsAttemptsTogether() {
    steps.on("slow", runsUntil(new CountDownLatch(1), Duration.ofSeconds(30)));

    ExecutionResult result =
        runToResult(
            aSchedule("total-timeout")
                .with(
                    aStep(0, "slow")
                        .timeout(Duration.ofSeconds(5))
                        .attemptTimeout(Duration.ofSeconds(2))
                        .attempts(10),
                    aStep(1, "after")));

    StepOutcome slow = outcome(result, "slow");
    assertThat(slow.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(steps.attempts.get("slow").get())
        .as("ten attempts of 2 s do not fit into the step's 5 s")
        .isBetween(1, 3);
    assertThat(slow.message()).contains("PT5S");
    assertThat(outcome(result, "after").status()).isEqualTo(StepStatus.Skipped);
  }

  @Test
  void aFailingStepIsRetriedAndReportsEveryAttempt() {
    steps.on("flaky", fails("connection reset"));

    ExecutionResult result = runToResult(aSchedule("retry").with(aStep(0, "flaky").attempts(3)));

    assertThat(steps.attempts.get("flaky")).hasValue(3);
    assertThat(outcome(result, "flaky").status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(outcome(result, "flaky").attempts()).isEqualTo(3);
    assertThat(outcome(result, "flaky").message())
        .contains("connection reset")
        .contains("after 3 attempts");
  }

  @Test
  void aStepThatSucceedsOnItsSecondAttemptCompletesWithTwoAttempts() {
    steps.on(
        "second-time-lucky",
        (r, c) -> {
          if (c.getInfo().getAttempt() == 1) {
            throw ApplicationFailure.newFailure("first try fails", StepFailures.STEP_FAILED);
          }
          return FakeStepActivities.complete(c, "ok");
        });

    ExecutionResult result =
        run(aSchedule("lucky").with(aStep(0, "second-time-lucky").attempts(3)));

    assertThat(outcome(result, "second-time-lucky").status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome(result, "second-time-lucky").attempts()).isEqualTo(2);
  }

  @Test
  void aConfigurationErrorIsNotRetried() {
    steps.on("misconfigured", failsWithConfigurationError("unknown connected system 'HR'"));

    ExecutionResult result =
        runToResult(aSchedule("config").with(aStep(0, "misconfigured").attempts(5)));

    assertThat(steps.attempts.get("misconfigured")).hasValue(1);
    assertThat(outcome(result, "misconfigured").attempts()).isEqualTo(1);
    assertThat(outcome(result, "misconfigured").message())
        .isEqualTo("unknown connected system 'HR'");
  }

  @Test
  void aRetriedAttemptResumesFromTheCheckpointTheLostAttemptHeartbeated() {
    steps.on(
        "counter",
        (r, c) -> {
          if (c.getInfo().getAttempt() == 1) {
            c.heartbeat(new StepHeartbeat(5, 10, "5", 1));
            // The attempt goes silent, as if its worker died, until the test is over: only the
            // heartbeat timeout can end it.
            testOver.await(2, TimeUnit.MINUTES);
            return FakeStepActivities.complete(c, "too late");
          }
          String from =
              c.getHeartbeatDetails(StepHeartbeat.class).map(StepHeartbeat::checkpoint).orElse("0");
          return FakeStepActivities.complete(c, "resumed from " + from);
        });

    ExecutionResult result =
        run(
            aSchedule("resume")
                .with(aStep(0, "counter").attempts(3).heartbeatTimeout(Duration.ofSeconds(1))));

    assertThat(outcome(result, "counter").status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome(result, "counter").message()).isEqualTo("resumed from 5");
    assertThat(outcome(result, "counter").attempts()).isEqualTo(2);
  }

  @Test
  void anAttemptInterruptedByItsWorkersStopIsResumedFromItsCheckpointWithoutCounting() {
    java.util.List<StepRunRequest> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
    steps.on(
        "stopped",
        (r, c) -> {
          requests.add(r);
          if (r.resumeFrom() == null) {
            throw ApplicationFailure.newBuilder()
                .setMessage("interrupted: its worker stopped")
                .setType(StepFailures.WORKER_STOPPED)
                .setNonRetryable(true)
                .setDetails(new StepHeartbeat(7, 10, "7", 1))
                .build();
          }
          return FakeStepActivities.complete(c, "resumed from " + r.resumeFrom().checkpoint());
        });

    ExecutionResult result = run(aSchedule("stop").with(aStep(0, "stopped").attempts(3)));

    assertThat(outcome(result, "stopped").status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome(result, "stopped").message()).isEqualTo("resumed from 7");
    assertThat(outcome(result, "stopped").attempts()).isEqualTo(1);
    assertThat(requests).hasSize(2);
  }

  @Test
  void aStepWhoseWorkersKeepStoppingEndsFailedAfterItsResumptions() {
    steps.on(
        "always-stopped",
        (r, c) -> {
          throw ApplicationFailure.newBuilder()
              .setMessage("interrupted: its worker stopped")
              .setType(StepFailures.WORKER_STOPPED)
              .setNonRetryable(true)
              .setDetails(new StepHeartbeat(0, -1, null, 1))
              .build();
        });

    ExecutionResult result =
        runToResult(aSchedule("stops").with(aStep(0, "always-stopped").attempts(3)));

    assertThat(result.status()).isEqualTo(ExecutionStatus.Failed);
    assertThat(outcome(result, "always-stopped").message())
        .isEqualTo("interrupted: its worker stopped");
    assertThat(steps.attempts.get("always-stopped"))
        .hasValue(StepDispatcher.MAXIMUM_RESUMPTIONS + 1);
  }

  @Test
  void aRunProfileStepThatEndsWithoutAResultIsFinalizedOnce() {
    steps.on("import", runsUntil(new CountDownLatch(1), Duration.ofSeconds(8)));

    ExecutionResult result =
        runToResult(
            aSchedule("abandon")
                .with(
                    aStep(0, "import")
                        .runProfile("HR", "Full Import")
                        .timeout(Duration.ofSeconds(2))));

    assertThat(outcome(result, "import").status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(steps.abandoned).hasSize(1);
    AbandonStepRequest abandoned = steps.abandoned.get(0);
    assertThat(abandoned.run().step().runProfile().connectedSystem()).isEqualTo("HR");
    assertThat(abandoned.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(abandoned.reason()).contains("timed out after PT2S");
  }

  @Test
  void aCancelledRunProfileStepIsFinalizedAsCancelled() throws Exception {
    steps.on("sync", runsUntil(new CountDownLatch(1), Duration.ofSeconds(60)));
    WorkflowStub stub =
        start(aSchedule("abandon-cancel").with(aStep(0, "sync").runProfile("AD", "Delta Sync")));
    awaitCondition(() -> steps.started.contains("sync"));

    stub.cancel();

    assertThatThrownBy(() -> stub.getResult(ExecutionResult.class))
        .isInstanceOf(WorkflowFailedException.class);
    assertThat(steps.abandoned)
        .singleElement()
        .satisfies(
            a -> {
              assertThat(a.status()).isEqualTo(StepStatus.Cancelled);
              assertThat(a.run().step().name()).isEqualTo("sync");
            }); // The execution's history names the run record that the finalizing found.
    assertThat(records.stored(stub.getExecution().getWorkflowId()).steps())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.status()).isEqualTo(StepStatus.Cancelled);
              assertThat(r.runRecordId()).isEqualTo("run-record-of-sync");
            });
  }

  @Test
  void aGroupOfAThousandStepsRunsWithBoundedConcurrency() {
    ScheduleBuilder schedule = aSchedule("thousand").maxParallelSteps(40);
    for (int i = 0; i < 1000; i++) {
      String name = "step-" + i;
      steps.on(name, sleeps(Duration.ofMillis(20)));
      schedule.with(aStep(0, name).heartbeatTimeout(Duration.ofSeconds(30)));
    }

    ExecutionResult result = run(schedule);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(result.steps()).hasSize(1000).allMatch(s -> s.status() == StepStatus.Complete);
    assertThat(steps.maxConcurrent.get()).isLessThanOrEqualTo(40).isGreaterThan(1);
  }

  @Test
  void theProgressQueryShowsTheGroupUnderWayAndEveryStepsState() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    steps.on("sync", runsUntil(release, Duration.ofSeconds(60)));
    WorkflowStub stub =
        start(
            aSchedule("progress")
                .named("Nightly HR Sync")
                .with(
                    aStep(0, "import"), aStep(1, "sync"), aStep(1, "export"), aStep(2, "confirm")));

    ExecutionProgress progress =
        awaitProgress(
            stub, p -> p.currentGroup() == 2 && outcome(p.steps(), "export").status().isFinal());

    assertThat(progress.scheduleId()).isEqualTo("progress");
    assertThat(progress.scheduleName()).isEqualTo("Nightly HR Sync");
    assertThat(progress.status()).isEqualTo(ExecutionStatus.InProgress);
    assertThat(progress.groupCount()).isEqualTo(3);
    assertThat(outcome(progress.steps(), "import").status()).isEqualTo(StepStatus.Complete);
    StepOutcome sync = outcome(progress.steps(), "sync");
    assertThat(sync.status()).isEqualTo(StepStatus.Running);
    assertThat(sync.attempts()).isEqualTo(1);
    assertThat(sync.startedAt()).isNotNull();
    assertThat(sync.endedAt()).isNull();
    assertThat(outcome(progress.steps(), "export").status()).isEqualTo(StepStatus.Complete);
    assertThat(outcome(progress.steps(), "confirm").status()).isEqualTo(StepStatus.Waiting);
    // Published within a second of workflow time after the group started.
    awaitCondition(() -> Long.valueOf(2L).equals(groupAttribute(stub)));
    assertThat(statusAttribute(stub)).isEqualTo("InProgress");

    release.countDown();
    assertThat(stub.getResult(ExecutionResult.class).status()).isEqualTo(ExecutionStatus.Complete);
  }

  @Test
  void theStepRailInTheCurrentDetailsShowsTheGroupUnderWayAndTheFinalStatus() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    steps.on("sync", runsUntil(release, Duration.ofSeconds(60)));
    WorkflowStub stub =
        start(
            aSchedule("rail")
                .named("Nightly HR Sync")
                .with(
                    aStep(0, "import"), aStep(1, "sync"), aStep(1, "export"), aStep(2, "confirm")));
    awaitProgress(stub, p -> outcome(p.steps(), "export").status().isFinal());

    assertThat(currentDetails(stub))
        .contains("**Nightly HR Sync** · InProgress", "Step group 2 of 3")
        .contains("✔ 0 · import — Complete", "▶ 1 · sync — Running (attempt 1)")
        .contains("✔ 1 · export — Complete", "○ 2 · confirm — Waiting");

    release.countDown();
    stub.getResult(ExecutionResult.class);
    assertThat(currentDetails(stub))
        .contains("**Nightly HR Sync** · Complete", "All 4 step(s) complete")
        .contains("✔ 1 · sync — Complete", "✔ 2 · confirm — Complete");
  }

  @Test
  void theProgressQueryShowsTheAttemptOfARetriedStep() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    steps.on(
        "retried",
        (r, c) -> {
          if (c.getInfo().getAttempt() == 1) {
            throw ApplicationFailure.newFailure("first attempt fails", StepFailures.STEP_FAILED);
          }
          return runsUntil(release, Duration.ofSeconds(60)).run(r, c);
        });
    WorkflowStub stub = start(aSchedule("attempt").with(aStep(0, "retried").attempts(3)));

    ExecutionProgress progress =
        awaitProgress(stub, p -> outcome(p.steps(), "retried").attempts() == 2);

    assertThat(outcome(progress.steps(), "retried").status()).isEqualTo(StepStatus.Running);
    release.countDown();
    assertThat(outcome(stub.getResult(ExecutionResult.class), "retried").attempts()).isEqualTo(2);
  }

  @Test
  void searchAttributesNameTheScheduleItsStatusAndTheLastGroup() {
    steps.on("b", fails("no"));
    WorkflowStub stub =
        start(
            aSchedule("attrs")
                .onStepFailure(FailurePolicy.CONTINUE)
                .with(aStep(0, "a"), aStep(1, "b")));
    stub.getResult(ExecutionResult.class);

    SearchAttributes attributes = stub.describe().getTypedSearchAttributes();
    assertThat(attributes.get(JimflowSearchAttributes.SCHEDULE_ID)).isEqualTo("attrs");
    assertThat(attributes.get(JimflowSearchAttributes.STATUS)).isEqualTo("CompleteWithError");
    assertThat(attributes.get(JimflowSearchAttributes.STEP_GROUP)).isEqualTo(2L);
  }

  @Test
  void aFinishedExecutionStaysFinishedWhenACancelArrivesLate() {
    WorkflowStub stub = start(aSchedule("late-cancel").with(aStep(0, "only")));
    assertThat(stub.getResult(ExecutionResult.class).status()).isEqualTo(ExecutionStatus.Complete);

    try {
      stub.cancel();
    } catch (RuntimeException rejectedByTheServer) {
      // A closed execution cannot be cancelled; either way nothing may change.
    }

    ExecutionProgress progress = stub.query("progress", ExecutionProgress.class);
    assertThat(progress.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(progress.steps())
        .singleElement()
        .extracting(StepOutcome::status)
        .isEqualTo(StepStatus.Complete);
    assertThat(statusAttribute(stub)).isEqualTo("Complete");
  }

  @Test
  void anExecutionWithoutStepsFailsAtOnceInsteadOfRetrying() {
    WorkflowStub stub = start(aSchedule("empty"));

    WorkflowFailedException failure =
        catchThrowableOfType(
            WorkflowFailedException.class, () -> stub.getResult(ExecutionResult.class));

    assertThat(((ApplicationFailure) failure.getCause()).getType())
        .isEqualTo(StepFailures.INVALID_INPUT);
  }

  // --- helpers

  private WorkflowStub start(ScheduleBuilder schedule) {
    ScheduleExecutionInput input = schedule.input();
    WorkflowStub stub =
        client.newUntypedWorkflowStub(
            ScheduleExecutionWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId(input.definition().id() + "-" + (++runs))
                .build());
    stub.start(input);
    return stub;
  }

  /** Runs to a result that the workflow returned, or that it carried in its failure. */
  private ExecutionResult runToResult(ScheduleBuilder schedule) {
    WorkflowStub stub = start(schedule);
    try {
      return stub.getResult(ExecutionResult.class);
    } catch (WorkflowFailedException e) {
      return ((ApplicationFailure) e.getCause()).getDetails().get(ExecutionResult.class);
    }
  }

  private ExecutionResult run(ScheduleBuilder schedule) {
    return start(schedule).getResult(ExecutionResult.class);
  }

  private static StepOutcome outcome(ExecutionResult result, String name) {
    return outcome(result.steps(), name);
  }

  private static StepOutcome outcome(List<StepOutcome> steps, String name) {
    return steps.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  private static ExecutionProgress awaitProgress(
      WorkflowStub stub, Predicate<ExecutionProgress> until) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    ExecutionProgress progress = null;
    while (System.nanoTime() < deadline) {
      progress = stub.query("progress", ExecutionProgress.class);
      if (progress.scheduleId() != null && until.test(progress)) {
        return progress;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("progress never matched; last: " + progress);
  }

  private static void awaitCondition(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition never held");
      }
      Thread.sleep(50);
    }
  }

  /** What the Temporal UI shows as the execution's current details. */
  private static String currentDetails(WorkflowStub stub) {
    return stub.query("__temporal_workflow_metadata", WorkflowMetadata.class).getCurrentDetails();
  }

  private static String statusAttribute(WorkflowStub stub) {
    return stub.describe().getTypedSearchAttributes().get(JimflowSearchAttributes.STATUS);
  }

  private static Long groupAttribute(WorkflowStub stub) {
    return stub.describe().getTypedSearchAttributes().get(JimflowSearchAttributes.STEP_GROUP);
  }

  /** Whole seconds of workflow time from the execution's first event to its last. */
  private long workflowSeconds(WorkflowStub stub) {
    List<HistoryEvent> events =
        client.fetchHistory(stub.getExecution().getWorkflowId()).getEvents();
    var first = events.get(0).getEventTime();
    var last = events.get(events.size() - 1).getEventTime();
    return ((last.getSeconds() - first.getSeconds()) * 1_000
            + (last.getNanos() - first.getNanos()) / 1_000_000)
        / 1_000;
  }

  /** How many search attribute upserts the execution's history holds. */
  private long upserts(WorkflowStub stub) {
    return client.fetchHistory(stub.getExecution().getWorkflowId()).getEvents().stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)
        .count();
  }
}
