package io.jimflow.schedule;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.testing.JimflowTestEnvironment;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import io.temporal.worker.Worker;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SchedulePreviewWorkflowTest {

  private static final Initiator ADA = new Initiator(InitiatorType.User, "ada", "ada");

  private TestWorkflowEnvironment env;

  @BeforeEach
  void startEnvironment() {
    env = JimflowTestEnvironment.newEnvironment();
    Worker worker = JimflowTestEnvironment.newWorker(env, TaskQueues.SCHEDULES);
    worker.registerWorkflowImplementationTypes(SchedulePreviewWorkflowImpl.class);
    worker.registerActivitiesImplementations(new FakeStepActivities());
    env.start();
  }

  @AfterEach
  void stopEnvironment() {
    env.close();
  }

  private SchedulePreviewWorkflow stub() {
    return env.getWorkflowClient()
        .newWorkflowStub(
            SchedulePreviewWorkflow.class,
            WorkflowOptions.newBuilder()
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setWorkflowId("nightly/preview/1")
                .build());
  }

  @Test
  void aPreviewRunsAsAWorkflowAndReturnsWhatTheWorkerFound() {
    SchedulePreview preview =
        stub()
            .preview(
                new PreviewRequest(
                    aSchedule("nightly")
                        .with(aStep(0, "Import").runProfile("HR", "Full Import"))
                        .definition(),
                    ADA));

    assertThat(preview.scheduleId()).isEqualTo("nightly");
    assertThat(preview.steps())
        .extracting(SchedulePreview.StepPreview::name)
        .containsExactly("Import");
    assertThat(preview.systems().get(0).exports()).isEqualTo(new SchedulePreview.Counts(1, 3, 0));
    // The samples come through Temporal's payloads with their values before and after.
    assertThat(preview.systems().get(0).samples())
        .extracting(ChangeSample::describe)
        .containsExactly("Update E1: title 'Engineer' -> 'Architect'");
  }

  @Test
  void aPreviewOfAHostileDefinitionFailsAtOnce() {
    StepBuilder[] steps =
        IntStream.range(0, PreviewRequest.MAX_STEPS + 1)
            .mapToObj(i -> aStep(i, "s" + i).runProfile("HR", "Full Import"))
            .toArray(StepBuilder[]::new);
    PreviewRequest tooMany = new PreviewRequest(aSchedule("big").with(steps).definition(), ADA);

    assertThatThrownBy(() -> stub().preview(tooMany))
        .isInstanceOf(WorkflowFailedException.class)
        .hasStackTraceContaining("at most 1000 steps");
    assertThatThrownBy(() -> stub().preview(new PreviewRequest(null, ADA)))
        .isInstanceOf(WorkflowFailedException.class);
  }
}
