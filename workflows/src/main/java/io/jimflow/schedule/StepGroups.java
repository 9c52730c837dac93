package io.jimflow.schedule;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan of an execution: its steps grouped by index, groups in ascending index order, steps
 * within a group in the order the schedule lists them.
 */
public record StepGroups(List<StepGroup> groups) {

  public StepGroups {
    groups = List.copyOf(groups);
  }

  /** Groups the steps of a schedule; each step keeps its position in {@code steps}. */
  public static StepGroups plan(List<StepDefinition> steps) {
    Map<Integer, List<PlannedStep>> byIndex = new TreeMap<>();
    for (int position = 0; position < steps.size(); position++) {
      StepDefinition step = steps.get(position);
      byIndex
          .computeIfAbsent(step.index(), i -> new ArrayList<>())
          .add(new PlannedStep(position, step));
    }
    List<StepGroup> groups = new ArrayList<>();
    byIndex.forEach((index, planned) -> groups.add(new StepGroup(index, planned)));
    return new StepGroups(groups);
  }

  public int count() {
    return groups.size();
  }

  /** Every planned step, group by group. */
  public List<PlannedStep> steps() {
    return groups.stream().flatMap(g -> g.steps().stream()).toList();
  }

  /** The steps that share one index and run together. */
  public record StepGroup(int index, List<PlannedStep> steps) {
    public StepGroup {
      steps = List.copyOf(steps);
    }
  }

  /** A step and its 0-based position in the schedule's step list. */
  public record PlannedStep(int position, StepDefinition definition) {}
}
