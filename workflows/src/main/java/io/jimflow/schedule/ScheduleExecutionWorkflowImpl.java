package io.jimflow.schedule;

import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.resource.ResourceLocks;
import io.jimflow.resource.ResourceNotice;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.StepGroups.PlannedStep;
import io.jimflow.schedule.StepGroups.StepGroup;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Runs a schedule's step groups one after the other, each group's steps as parallel activities, and
 * applies the failure policy after every group.
 *
 * <p>It keeps the search attributes {@code JimflowScheduleId}, {@code JimflowStatus} (an {@link
 * ExecutionStatus} name) and {@code JimflowStepGroup} (the 1-based position of the group under way,
 * as in "group 2 of 4"; updated at most once a second, see {@link GroupPublisher}) current, and
 * shows the step rail as current details (every change: the rail costs no history event). A group
 * starts at most {@code maxParallelSteps} (see {@link ParallelSteps}) of its steps at once and
 * starts the next as soon as one ends; the {@link StepDispatcher} runs each step and writes its end
 * on the {@link StepBoard}.
 *
 * <p>A RunProfile step first takes the resources it touches (its connected system; the metaverse
 * for a synchronisation) from their {@code ResourceLockWorkflow}s and gives them back when it ends,
 * so that no two runs touch one connected system at once; meanwhile it stays Waiting with a message
 * that names the resource, its holder and since when.
 */
public class ScheduleExecutionWorkflowImpl implements ScheduleExecutionWorkflow {

  private static final Logger log = Workflow.getLogger(ScheduleExecutionWorkflowImpl.class);

  /** RunProfile steps hold their resources exclusively from this version on. */
  static final String RESOURCE_EXCLUSION = Resources.EXCLUSION_CHANGE_ID;

  /**
   * The change after which a step that ended CompleteWithError (a run with error items, the other
   * objects handled) no longer stops its execution; executions that stopped there before replay as
   * they ran.
   */
  static final String COMPLETE_WITH_ERROR_GOES_ON = "complete-with-error-goes-on";

  private final ResourceLocks locks = new ResourceLocks();
  private final ParallelSteps parallel;
  private final Approvals approvals = new Approvals();

  private ScheduleDefinition definition;
  private ScheduleExecutionInput input;
  private StepGroups plan;
  private StepBoard board;
  private ExecutionStatus status = ExecutionStatus.InProgress;
  private int currentGroup;
  private String message;

  private StepDispatcher steps;
  private boolean railStale;
  private ExecutionHistory history;
  private GroupPublisher publisher;
  private Instant startedAt;
  private Initiator cancelledBy;

  public ScheduleExecutionWorkflowImpl() {
    this(ParallelSteps.DEFAULT_MAXIMUM);
  }

  /**
   * @param maxParallelSteps the worker's maximum for every execution's {@code maxParallelSteps}
   */
  public ScheduleExecutionWorkflowImpl(int maxParallelSteps) {
    this.parallel = new ParallelSteps(maxParallelSteps);
  }

  @Override
  public ExecutionResult run(ScheduleExecutionInput input) {
    if (input == null || input.definition() == null || input.definition().steps().isEmpty()) {
      // Failing the workflow (not its task) keeps a malformed start from retrying forever.
      throw ApplicationFailure.newNonRetryableFailure(
          "A schedule execution needs a schedule definition with at least one step",
          StepFailures.INVALID_INPUT);
    }
    this.input = input;
    int exclusionVersion = Workflow.getVersion(RESOURCE_EXCLUSION, Workflow.DEFAULT_VERSION, 1);
    this.definition = input.definition();
    this.plan = StepGroups.plan(definition.steps());
    this.board = new StepBoard(plan);
    startedAt = now();
    if (Workflow.getVersion(ExecutionHistory.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      history = new ExecutionHistory(plan);
      recordHistory();
    }
    steps =
        new StepDispatcher(
            input,
            board,
            locks,
            approvals,
            history,
            exclusionVersion >= 1,
            () -> railStale = true,
            this::showRail);
    if (Workflow.getVersion(GroupPublisher.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      publisher = new GroupPublisher(this::recordHistory);
      publisher.open(definition.id(), status);
    } else {
      Workflow.upsertTypedSearchAttributes(
          JimflowSearchAttributes.SCHEDULE_ID.valueSet(definition.id()),
          JimflowSearchAttributes.STATUS.valueSet(status.name()),
          JimflowSearchAttributes.STEP_GROUP.valueSet(0L));
    }
    railStale = true;

    boolean cancelled = false;
    GroupVerdict stoppedBy = null;
    List<StepOutcome> tolerated = new ArrayList<>();
    CancellationScope root = CancellationScope.current();
    for (int g = 0; g < plan.count() && !cancelled; g++) {
      if (root.isCancelRequested()) {
        cancelled = true;
        break;
      }
      StepGroup group = plan.groups().get(g);
      currentGroup = g + 1;
      if (publisher != null) {
        if (g > 0) {
          publisher.groupStarted(currentGroup);
        }
      } else {
        if (g > 0) {
          // The groups that ended; the last group's steps go with the execution's end.
          recordHistory();
        }
        Workflow.upsertTypedSearchAttributes(
            JimflowSearchAttributes.STEP_GROUP.valueSet((long) currentGroup));
      }
      railStale = true;
      try {
        runGroup(group, root);
      } catch (CanceledFailure e) {
        // Cancelled steps end only once their runner has stopped (WAIT_CANCELLATION_COMPLETED).
        Workflow.newDetachedCancellationScope(() -> await(() -> steps.running() == 0)).run();
        cancelled = anyUnfinished(group) || board.count(StepStatus.Waiting) > 0;
      }
      if (steps.hasLeftovers()) {
        showStaleRail();
        steps.abandonLeftovers();
      }
      if (cancelled) {
        break;
      }
      GroupVerdict verdict =
          FailurePolicies.afterGroup(group, board.byPosition(), definition.onStepFailure());
      if (verdict.stop()
          && verdict.stopping().stream().allMatch(s -> s.status() == StepStatus.CompleteWithError)
          && Workflow.getVersion(COMPLETE_WITH_ERROR_GOES_ON, Workflow.DEFAULT_VERSION, 1) >= 1) {
        verdict =
            FailurePolicies.afterGroup(
                group, board.byPosition(), definition.onStepFailure(), false);
      }
      tolerated.addAll(verdict.tolerated());
      if (verdict.stop()) {
        stoppedBy = verdict;
        break;
      }
    }

    int skipped = board.skipWaiting();
    status = FailurePolicies.finalStatus(cancelled, stoppedBy != null, board.all());
    if (status == ExecutionStatus.Cancelled) {
      // The cancel request's reason names the canceller when jimflow's client sent it.
      cancelledBy = Canceller.of(root.getCancellationReason()).orElse(null);
    }
    message = finalMessage(stoppedBy, tolerated, skipped);
    ExecutionResult result =
        new ExecutionResult(
            definition.id(), definition.name(), status, message, startedAt, now(), board.all());
    if (publisher != null) {
      publisher.stop();
    }
    recordHistory();
    if (history != null) {
      history.awaitWrites();
    }
    if (publisher != null) {
      publisher.close(status);
    } else {
      Workflow.upsertTypedSearchAttributes(JimflowSearchAttributes.STATUS.valueSet(status.name()));
    }
    showRail();
    if ((status == ExecutionStatus.Failed || status == ExecutionStatus.CompleteWithError)
        && Workflow.getVersion(Notifications.CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1) {
      Notifications.send(
          new Notification(
              Notification.Event.ExecutionEnded,
              definition.id(),
              definition.name(),
              Workflow.getInfo().getWorkflowId(),
              status,
              message,
              board.all().stream()
                  .filter(s -> s.status() == StepStatus.FailedWithError)
                  .map(StepOutcome::name)
                  .toList(),
              definition.notificationUrl()),
          "notify");
    }
    log.info("Schedule {} ended {}: {}", definition.id(), status, message);
    switch (status) {
      case Cancelled -> throw new CanceledFailure(message);
      case Failed ->
          throw ApplicationFailure.newNonRetryableFailure(
              message, StepFailures.EXECUTION_FAILED, result);
      default -> {
        return result;
      }
    }
  }

  @Override
  public ExecutionProgress progress() {
    if (definition == null) {
      return new ExecutionProgress(null, null, status, 0, 0, null, List.of());
    }
    return new ExecutionProgress(
        definition.id(),
        definition.name(),
        status,
        currentGroup,
        plan.count(),
        message,
        board.all());
  }

  @Override
  public void stepAttemptStarted(StepAttempt attempt) {
    if (board != null && board.attemptStarted(attempt.position(), attempt.attempt())) {
      showRail();
    }
  }

  @Override
  public void resourceNotice(ResourceNotice notice) {
    locks.onNotice(notice);
  }

  @Override
  public void validateApproval(ApprovalDecision decision) {
    Optional<String> problem = approvals.problem(decision);
    if (problem.isPresent()) {
      throw new IllegalArgumentException(problem.get());
    }
  }

  @Override
  public String decideApproval(ApprovalDecision decision) {
    validateApproval(decision);
    return approvals.decide(decision);
  }

  @Override
  public void approvalDecision(ApprovalDecision decision) {
    Optional<String> problem = approvals.problem(decision);
    if (problem.isPresent()) {
      log.warn("approval decision refused: {}", problem.get());
      return;
    }
    approvals.decide(decision);
  }

  /**
   * Starts the group's steps, at most {@code maxParallelSteps} at once, and returns when every
   * started step has ended. Throws CanceledFailure when the execution is cancelled meanwhile.
   */
  private void runGroup(StepGroup group, CancellationScope root) {
    Deque<PlannedStep> waiting = new ArrayDeque<>(group.steps());
    int limit = parallel.limit(input.settings());
    while (!waiting.isEmpty() || steps.running() > 0) {
      while (steps.running() < limit && !waiting.isEmpty()) {
        if (root.isCancelRequested()) {
          throw new CanceledFailure("cancelled before all steps of the group started");
        }
        steps.start(waiting.poll());
      }
      int endedBefore = steps.ended();
      await(() -> steps.ended() != endedBefore);
    }
    if (root.isCancelRequested()) {
      throw new CanceledFailure("cancelled while the group ran");
    }
  }

  /** Writes the execution's record as it stands (no-op for executions begun before it existed). */
  private void recordHistory() {
    if (history == null) {
      return;
    }
    history.write(
        new ExecutionRecord(
            Workflow.getInfo().getWorkflowId(),
            Workflow.getInfo().getRunId(),
            definition.id(),
            definition.name(),
            input.trigger(),
            input.initiator(),
            status,
            message,
            plan.count(),
            board.all().size(),
            startedAt,
            status.isFinal() ? now() : null,
            cancelledBy,
            List.of()),
        board);
  }

  private boolean anyUnfinished(StepGroup group) {
    return group.steps().stream()
        .map(p -> board.get(p.position()).status())
        .anyMatch(st -> !st.isFinal() || st == StepStatus.Cancelled);
  }

  private String finalMessage(GroupVerdict stoppedBy, List<StepOutcome> tolerated, int skipped) {
    if (status == ExecutionStatus.Cancelled) {
      return "Cancelled "
          + (cancelledBy == null ? "" : "by " + Canceller.describe(cancelledBy) + " ")
          + "during step group "
          + currentGroup
          + " of "
          + plan.count()
          + ": "
          + board.count(StepStatus.Cancelled)
          + " step(s) cancelled, "
          + skipped
          + " skipped";
    }
    if (stoppedBy != null) {
      return "Stopped after step group "
          + currentGroup
          + " of "
          + plan.count()
          + ": "
          + stoppedBy.describeStopping()
          + (stoppedBy.stopping().size() == 1 ? " and does" : " and do")
          + " not continue on failure; "
          + skipped
          + " later step(s) skipped";
    }
    if (!tolerated.isEmpty()) {
      return "Completed with errors (continued on failure): " + GroupVerdict.describe(tolerated);
    }
    return "All " + board.all().size() + " step(s) complete";
  }

  /**
   * Blocks until {@code unblocked} holds, showing the step rail first if it changed: a workflow
   * task ends only when the workflow blocks, so the rail is rendered once per task, not once per
   * change (a group of 500 steps would otherwise render it 500 times as it starts).
   */
  private void await(Supplier<Boolean> unblocked) {
    showStaleRail();
    Workflow.await(unblocked);
  }

  private void showStaleRail() {
    if (railStale) {
      showRail();
    }
  }

  private void showRail() {
    railStale = false;
    Workflow.setCurrentDetails(board.rail(definition.name(), status, currentGroup, message));
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
