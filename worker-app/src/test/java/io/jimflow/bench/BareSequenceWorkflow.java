package io.jimflow.bench;

import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.StepRunResult;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * The least a workflow can do to run a schedule's groups in order: the overhead benchmark's
 * baseline.
 */
@WorkflowInterface
public interface BareSequenceWorkflow {
  @WorkflowMethod(name = "BareSequence")
  List<StepRunResult> run(ScheduleDefinition definition);
}
