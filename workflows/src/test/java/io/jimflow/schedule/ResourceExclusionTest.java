package io.jimflow.schedule;

import static io.jimflow.schedule.FakeStepActivities.runsUntil;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.TaskQueues;
import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.encryption.PayloadKeyring;
import io.jimflow.resource.ResourceClaim;
import io.jimflow.resource.ResourceLockState;
import io.jimflow.resource.ResourceLockWorkflow;
import io.jimflow.resource.ResourceLockWorkflowImpl;
import io.jimflow.resource.ResourceRelease;
import io.jimflow.resource.Resources;
import io.jimflow.testing.FakeResourceActivities;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.testing.ScheduleBuilders.ScheduleBuilder;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.temporal.api.enums.v1.EventType;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RunProfile steps hold their connected system (and a synchronisation the metaverse) exclusively
 * across executions; a waiting step says what it waits for.
 */
class ResourceExclusionTest {

  private TestWorkflowEnvironment env;
  private WorkflowClient client;
  private final FakeStepActivities steps = new FakeStepActivities();

  /** The workers' payload keys: the locks and claimants read and write encrypted payloads. */
  private static final PayloadKeyring WORKER_KEYS = keyring("worker-key");

  @BeforeEach
  void startEnvironment() {
    env =
        JimflowTestEnvironment.newEnvironment(
            WorkflowClientOptions.newBuilder()
                .setDataConverter(PayloadEncryption.with(WORKER_KEYS).dataConverter())
                .build());
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(
        ScheduleExecutionWorkflowImpl.class, ResourceLockWorkflowImpl.class);
    worker.registerActivitiesImplementations(
        steps, new FakeResourceActivities(), new RecordingExecutionRecords());
    env.start();
    client = env.getWorkflowClient();
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  @Test
  void twoExecutionsOnOneSystemRunOneAfterTheOtherAndTheSecondSaysWhatItWaitsFor()
      throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    steps.on("first import", runsUntil(releaseFirst, Duration.ofSeconds(60)));
    WorkflowStub first = start("first", aStep(0, "first import").runProfile("HR", "Full Import"));
    awaitCondition(() -> steps.started.contains("first import"));

    WorkflowStub second =
        start("second", aStep(0, "second import").runProfile("HR", "Full Import"));
    ExecutionProgress waiting = awaitProgress(second, p -> p.steps().get(0).message() != null);

    StepOutcome waitingStep = waiting.steps().get(0);
    assertThat(waitingStep.status()).isEqualTo(StepStatus.Waiting);
    assertThat(waitingStep.message())
        .startsWith("waiting for HR, held by " + first.getExecution().getWorkflowId() + " since ");
    assertThat(currentDetails(second)).contains("waiting for HR");
    assertThat(steps.started).doesNotContain("second import");

    releaseFirst.countDown();
    assertThat(first.getResult(ExecutionResult.class).status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(second.getResult(ExecutionResult.class).status())
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(steps.maxConcurrent.get()).isEqualTo(1);
    assertThat(steps.started).containsExactly("first import", "second import");
  }

  @Test
  void exportsToDifferentSystemsStayParallel() {
    CountDownLatch both = new CountDownLatch(2);
    FakeStepActivities.Behaviour meet =
        (r, c) -> {
          both.countDown();
          // Each waits for the other: only running side by side lets them finish.
          if (!both.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("the other export never ran alongside");
          }
          return FakeStepActivities.complete(c, "exported");
        };
    steps.on("AD export", meet).on("LDAP export", meet);

    ExecutionResult result =
        start(
                "exports",
                aStep(0, "AD export").runProfile("AD", "Export"),
                aStep(0, "LDAP export").runProfile("LDAP", "Export"))
            .getResult(ExecutionResult.class);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(steps.maxConcurrent.get()).isEqualTo(2);
  }

  @Test
  void synchronisationsOfDifferentSystemsShareTheMetaverseOneAtATime() throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    steps.on("HR sync", runsUntil(releaseFirst, Duration.ofSeconds(60)));
    WorkflowStub first = start("hr-sync", aStep(0, "HR sync").runProfile("HR", "Full Sync"));
    awaitCondition(() -> steps.started.contains("HR sync"));

    WorkflowStub second = start("ad-sync", aStep(0, "AD sync").runProfile("AD", "Delta Sync"));
    ExecutionProgress waiting =
        awaitProgress(
            second,
            p -> p.steps().get(0).message() != null && p.steps().get(0).message().contains("for"));

    assertThat(waiting.steps().get(0).message()).startsWith("waiting for Metaverse, held by");
    releaseFirst.countDown();
    assertThat(second.getResult(ExecutionResult.class).status())
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(first.getResult(ExecutionResult.class).status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(steps.maxConcurrent.get()).isEqualTo(1);
  }

  @Test
  void aStepCancelledWhileWaitingEndsCancelledAndNeverRuns() throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    steps.on("first import", runsUntil(releaseFirst, Duration.ofSeconds(60)));
    WorkflowStub first = start("first", aStep(0, "first import").runProfile("HR", "Full Import"));
    awaitCondition(() -> steps.started.contains("first import"));
    WorkflowStub second =
        start("second", aStep(0, "second import").runProfile("HR", "Full Import"));
    awaitProgress(second, p -> p.steps().get(0).message() != null);

    second.cancel();

    assertThatThrownBy(() -> second.getResult(ExecutionResult.class))
        .isInstanceOf(WorkflowFailedException.class);
    releaseFirst.countDown();
    first.getResult(ExecutionResult.class);
    assertThat(steps.started).containsExactly("first import");
    // The withdrawn claim left nothing behind: a third run gets the system at once.
    assertThat(
            start("third", aStep(0, "third import").runProfile("HR", "Full Import"))
                .getResult(ExecutionResult.class)
                .status())
        .isEqualTo(ExecutionStatus.Complete);
  }

  @Test
  void aHolderTerminatedWithoutReleasingLosesTheResourceToTheNextClaimant() throws Exception {
    CountDownLatch stuckWorker = new CountDownLatch(1);
    steps.on("stuck import", runsUntil(stuckWorker, Duration.ofSeconds(60)));
    WorkflowStub stuck = start("stuck", aStep(0, "stuck import").runProfile("HR", "Full Import"));
    awaitCondition(() -> steps.started.contains("stuck import"));
    WorkflowStub next = start("next", aStep(0, "next import").runProfile("HR", "Full Import"));
    awaitProgress(next, p -> p.steps().get(0).message() != null);

    stuck.terminate("operator");
    // The terminated execution never gives the resource back, whatever its step does now; the
    // step's activity is let go so that it does not keep running until its 60 s are up.
    stuckWorker.countDown();
    // The lock learns of it by its next probe of the holder.
    env.sleep(ResourceLockWorkflowImpl.PROBE_INTERVAL.plusSeconds(1));

    assertThat(next.getResult(ExecutionResult.class).status()).isEqualTo(ExecutionStatus.Complete);
    ResourceLockState lock =
        client.newWorkflowStub(ResourceLockWorkflow.class, Resources.lockWorkflowId("HR")).state();
    assertThat(lock.holder()).isNull();
  }

  @Test
  void aHolderTerminatedMidWayIsReplacedByItsNextRunUnderTheSameIdWithinOneProbe()
      throws Exception {
    CountDownLatch stuckWorker = new CountDownLatch(1);
    steps.on("clear HR", runsUntil(stuckWorker, Duration.ofSeconds(60)));
    WorkflowStub first = start("clear-hr", aStep(0, "clear HR").runProfile("HR", "Full Import"));
    awaitCondition(() -> steps.started.contains("clear HR"));

    first.terminate("operator pressed Ctrl+C");
    stuckWorker.countDown();
    steps.on("clear HR", FakeStepActivities.completes());
    WorkflowStub again = start("clear-hr", aStep(0, "clear HR").runProfile("HR", "Full Import"));
    assertThat(again.getExecution().getRunId()).isNotEqualTo(first.getExecution().getRunId());
    awaitProgress(again, p -> p.steps().get(0).message() != null);
    env.sleep(ResourceLockWorkflowImpl.PROBE_INTERVAL.plusSeconds(1));

    assertThat(again.getResult(60, TimeUnit.SECONDS, ExecutionResult.class).status())
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(steps.started).containsExactly("clear HR", "clear HR");
  }

  @Test
  void aForgedReleaseFromAnotherRunChangesNothing() throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    steps.on("first import", runsUntil(releaseFirst, Duration.ofSeconds(60)));
    WorkflowStub first = start("first", aStep(0, "first import").runProfile("HR", "Full Import"));
    awaitCondition(() -> steps.started.contains("first import"));
    WorkflowStub second =
        start("second", aStep(0, "second import").runProfile("HR", "Full Import"));
    awaitProgress(second, p -> p.steps().get(0).message() != null);
    ResourceLockWorkflow lock =
        client.newWorkflowStub(ResourceLockWorkflow.class, Resources.lockWorkflowId("HR"));
    ResourceClaim holder = lock.state().holder();
    assertThat(holder.holderRunId()).isEqualTo(first.getExecution().getRunId());

    // Anyone with Temporal access (and, here, the keys) sends the holder's own claim id.
    lock.release(new ResourceRelease(holder.claimId()));
    awaitCondition(() -> lockActivitiesCompleted("StillClaims") >= 1);

    assertThat(lock.state().holder()).isEqualTo(holder);
    assertThat(steps.started).containsExactly("first import");
    releaseFirst.countDown();
    assertThat(second.getResult(ExecutionResult.class).status())
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(steps.maxConcurrent.get()).isEqualTo(1);
  }

  @Test
  void aPoisonedSignalFailsOnlyItselfAndTheLockGoesOn() throws Exception {
    CountDownLatch releaseFirst = new CountDownLatch(1);
    steps.on("first import", runsUntil(releaseFirst, Duration.ofSeconds(60)));
    WorkflowStub first = start("first", aStep(0, "first import").runProfile("HR", "Full Import"));
    awaitCondition(() -> steps.started.contains("first import"));
    WorkflowClient otherKeys =
        WorkflowClient.newInstance(
            env.getWorkflowServiceStubs(),
            WorkflowClientOptions.newBuilder()
                .setDataConverter(PayloadEncryption.with(keyring("unknown-key")).dataConverter())
                .build());
    WorkflowStub lock = otherKeys.newUntypedWorkflowStub(Resources.lockWorkflowId("HR"));

    lock.signal(ResourceLockWorkflow.CLAIM, "not even a claim");
    lock.signal(ResourceLockWorkflow.RELEASE, "undecodable");
    WorkflowStub second =
        start("second", aStep(0, "second import").runProfile("HR", "Full Import"));
    awaitProgress(second, p -> p.steps().get(0).message() != null);
    releaseFirst.countDown();

    assertThat(second.getResult(ExecutionResult.class).status())
        .isEqualTo(ExecutionStatus.Complete);
    assertThat(first.getResult(ExecutionResult.class).status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(
            client.fetchHistory(Resources.lockWorkflowId("HR")).getEvents().stream()
                .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
                .toList())
        .as("no workflow task of the lock failed")
        .isEmpty();
  }

  // --- helpers

  private static PayloadKeyring keyring(String id) {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return PayloadKeyring.parse(id + ":" + Base64.getEncoder().encodeToString(key), "test");
  }

  private long lockActivitiesCompleted(String activityType) {
    var events = client.fetchHistory(Resources.lockWorkflowId("HR")).getEvents();
    return events.stream()
        .filter(e -> e.getEventType() == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
        .filter(
            e ->
                events.stream()
                    .anyMatch(
                        s ->
                            s.getEventId()
                                    == e.getActivityTaskCompletedEventAttributes()
                                        .getScheduledEventId()
                                && s.getActivityTaskScheduledEventAttributes()
                                    .getActivityType()
                                    .getName()
                                    .equals(activityType)))
        .count();
  }

  private WorkflowStub start(String id, StepBuilder... stepBuilders) {
    ScheduleBuilder schedule = aSchedule(id).named(id).with(stepBuilders);
    WorkflowStub stub =
        client.newUntypedWorkflowStub(
            ScheduleExecutionWorkflow.TYPE,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId(id)
                .build());
    stub.start(schedule.input());
    return stub;
  }

  static ExecutionProgress awaitProgress(WorkflowStub stub, Predicate<ExecutionProgress> until)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    ExecutionProgress progress = null;
    while (System.nanoTime() < deadline) {
      progress = stub.query("progress", ExecutionProgress.class);
      if (progress.scheduleId() != null && until.test(progress)) {
        return progress;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("progress never matched; last: " + progress);
  }

  private static void awaitCondition(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition never held");
      }
      Thread.sleep(50);
    }
  }

  private static String currentDetails(WorkflowStub stub) {
    return stub.query("__temporal_workflow_metadata", io.temporal.api.sdk.v1.WorkflowMetadata.class)
        .getCurrentDetails();
  }
}
