package io.jimflow.bench;

import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.StepActivities;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepOptions;
import io.jimflow.schedule.StepRunRequest;
import io.jimflow.schedule.StepRunResult;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class BareSequenceWorkflowImpl implements BareSequenceWorkflow {

  @Override
  public List<StepRunResult> run(ScheduleDefinition definition) {
    Map<Integer, List<StepDefinition>> groups = new TreeMap<>();
    definition
        .steps()
        .forEach(s -> groups.computeIfAbsent(s.index(), i -> new ArrayList<>()).add(s));
    List<StepRunResult> results = new ArrayList<>();
    String id = Workflow.getInfo().getWorkflowId();
    for (List<StepDefinition> group : groups.values()) {
      List<Promise<StepRunResult>> running = new ArrayList<>();
      for (StepDefinition step : group) {
        StepActivities activities =
            Workflow.newActivityStub(StepActivities.class, StepOptions.forStep(step));
        running.add(
            Async.function(
                activities::runStep,
                new StepRunRequest(
                    results.size() + running.size(), id, definition.id(), null, step)));
      }
      running.forEach(p -> results.add(p.get()));
    }
    return results;
  }
}
