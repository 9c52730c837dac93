package io.jimflow.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.TaskQueues;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.workitem.FinishedInput;
import io.jimflow.workitem.RunInput;
import io.jimflow.workitem.RunResult;
import io.jimflow.workitem.WorkItemActivities;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemTransition;
import io.jimflow.workitem.WorkItemView;
import io.jimflow.workitem.WorkItemWorkflowImpl;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WorkItemClientTest {

  /** Stands in for the run worker: only WorkItemFinished is reached by these tests. */
  static final class RecordingActivities implements WorkItemActivities {
    final List<FinishedInput> finished = new CopyOnWriteArrayList<>();

    @Override
    public RunResult run(RunInput input) {
      throw new UnsupportedOperationException("no item runs in these tests");
    }

    @Override
    public void finished(FinishedInput input) {
      finished.add(input);
    }
  }

  private TestWorkflowEnvironment env;
  private WorkItemClient items;
  private RecordingActivities activities;

  @BeforeEach
  void setUp() {
    env = JimflowTestEnvironment.newEnvironment();
    Worker manager = JimflowTestEnvironment.newWorker(env, TaskQueues.WORK_ITEMS);
    manager.registerWorkflowImplementationTypes(WorkItemWorkflowImpl.class);
    activities = new RecordingActivities();
    JimflowTestEnvironment.newWorker(env, TaskQueues.WORK_ITEM_RUNS)
        .registerActivitiesImplementations(activities);
    env.start();
    items = new WorkItemClient(env.getWorkflowClient());
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private Instant inOneHour() {
    return Instant.ofEpochMilli(env.currentTimeMillis()).plus(Duration.ofHours(1));
  }

  @Test
  void aScheduledItemCanBeShownMovedReplacedAndCancelled() {
    WorkItemView scheduled =
        items.schedule(WorkItemSpec.of("g1", "demo", "{\"n\":1}", inOneHour()));
    assertThat(scheduled.state()).isEqualTo(WorkItemState.WaitingForStart);

    Instant later = inOneHour().plus(Duration.ofHours(3));
    assertThat(items.changeStartTime("g1", later).startTime()).isEqualTo(later);
    assertThat(items.schedule(WorkItemSpec.of("g1", "demo", "{\"n\":2}", null)).state())
        .isEqualTo(WorkItemState.Suspended);

    WorkItemView shown = items.show("g1");
    assertThat(shown.stateJson()).isEqualTo("{\"n\":2}");
    assertThat(shown.log())
        .extracting(WorkItemTransition::to)
        .containsExactly(
            WorkItemState.WaitingForStart, WorkItemState.WaitingForStart, WorkItemState.Suspended);

    items.cancel("g1", "no longer needed");
    WorkItemView ended =
        env.getWorkflowClient().newUntypedWorkflowStub("g1").getResult(WorkItemView.class);
    assertThat(ended.state()).isEqualTo(WorkItemState.Removed);
    assertThat(items.show("g1").state()).isEqualTo(WorkItemState.Removed);
    assertThat(activities.finished)
        .singleElement()
        .satisfies(f -> assertThat(f.finalState()).isEqualTo(WorkItemState.Removed));
  }

  @Test
  void aSpecWithWrongFieldsIsRejectedBeforeAnythingIsScheduled() {
    WorkItemSpec bad =
        WorkItemSpec.of("g2", "demo", null, inOneHour())
            .withRunTimes(Duration.ofMinutes(1), Duration.ZERO, null);
    assertThatThrownBy(() -> items.schedule(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxRunTime: must be a positive duration");
    assertThatThrownBy(() -> items.show("g2")).isInstanceOf(RuntimeException.class);
  }

  @Test
  void cancellingAnEndedItemIsRefusedWithTheReason() {
    items.schedule(WorkItemSpec.of("g3", "demo", null, null));
    items.cancel("g3", "first");
    env.getWorkflowClient().newUntypedWorkflowStub("g3").getResult(WorkItemView.class);
    // An ended item's workflow is closed: the id is free for a new item, so a cancel finds nothing.
    assertThatThrownBy(() -> items.cancel("g3", "second")).isInstanceOf(RuntimeException.class);
  }

  @Test
  void theListQueryFiltersOnTheSearchAttributesAndLeavesOutReplacedRuns() {
    assertThat(WorkItemClient.listQuery(WorkItemState.Queued, "line-count"))
        .isEqualTo(
            "WorkflowType = 'WorkItem' AND ExecutionStatus != 'ContinuedAsNew'"
                + " AND JimflowWorkItemState = 'Queued' AND JimflowWorkItemKind = 'line-count'");
    assertThat(WorkItemClient.listQuery(null, null))
        .isEqualTo("WorkflowType = 'WorkItem' AND ExecutionStatus != 'ContinuedAsNew'");
    assertThatThrownBy(() -> WorkItemClient.listQuery(null, "x' OR 1=1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only letters, digits");
  }
}
