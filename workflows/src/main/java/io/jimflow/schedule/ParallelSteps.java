package io.jimflow.schedule;

import io.jimflow.schedule.ScheduleExecutionInput.ExecutionSettings;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * How many steps of one group an execution runs at once: its input's {@code maxParallelSteps}, held
 * to the maximum of the worker that registered the workflow. The input may come from a forged
 * start; the maximum is a registration constant of each worker, and the value an execution used is
 * recorded in its history (a side effect), so that a worker configured otherwise replays it alike.
 */
public final class ParallelSteps {

  /**
   * The change after which {@code maxParallelSteps} is held to the worker's maximum; executions
   * begun before replay as they ran.
   */
  static final String BOUNDED = "parallel-steps-bounded";

  /** A worker's maximum when none is configured: the input's own default. */
  public static final int DEFAULT_MAXIMUM = ExecutionSettings.DEFAULT_MAX_PARALLEL_STEPS;

  private static final Logger log = Workflow.getLogger(ParallelSteps.class);

  private final int workerMaximum;
  private int limit;

  /**
   * @param workerMaximum the most steps of one group this worker's executions run at once
   * @throws IllegalArgumentException for a maximum below 1
   */
  public ParallelSteps(int workerMaximum) {
    if (workerMaximum < 1) {
      throw new IllegalArgumentException(
          "jimflow.steps.maxima.parallel-steps must be 1 or more, got " + workerMaximum);
    }
    this.workerMaximum = workerMaximum;
  }

  /** The limit for {@code settings}, decided (and recorded) on the first call of an execution. */
  int limit(ExecutionSettings settings) {
    if (limit == 0) {
      int asked = settings.maxParallelSteps();
      limit = asked;
      if (Workflow.getVersion(BOUNDED, Workflow.DEFAULT_VERSION, 1) != Workflow.DEFAULT_VERSION) {
        int most = Workflow.sideEffect(Integer.class, () -> workerMaximum);
        limit = Math.min(asked, most);
        if (limit < asked) {
          log.warn("maxParallelSteps {} clamped to the worker's maximum {}", asked, limit);
        }
      }
    }
    return limit;
  }
}
