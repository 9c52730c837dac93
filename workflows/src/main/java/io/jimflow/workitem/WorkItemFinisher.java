package io.jimflow.workitem;

import io.temporal.failure.ActivityFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Workflow;
import org.slf4j.Logger;

/**
 * The work manager's call of WorkItemFinished: once per instance, never cancelled, never retried.
 */
final class WorkItemFinisher {

  private static final Logger log = Workflow.getLogger(WorkItemWorkflowImpl.class);

  private WorkItemFinisher() {}

  /**
   * Calls WorkItemFinished once, detached from any cancellation; false when it failed or overran,
   * which the journal then notes.
   */
  static boolean call(
      WorkItemJournal journal,
      WorkItemSpec spec,
      int instance,
      WorkItemState finalState,
      String stateJson,
      boolean restartFollows) {
    WorkItemActivities finisher =
        Workflow.newActivityStub(
            WorkItemActivities.class, WorkItemActivityOptions.finished(spec, finalState));
    FinishedInput input =
        new FinishedInput(
            spec.guid(), spec.kind(), instance, finalState, stateJson, restartFollows);
    boolean[] ok = {false};
    Workflow.newDetachedCancellationScope(
            () -> {
              try {
                finisher.finished(input);
                ok[0] = true;
              } catch (ActivityFailure f) {
                String why =
                    f.getCause() instanceof TimeoutFailure
                        ? "WorkItemFinished overran its limit of "
                            + WorkItemActivityOptions.FINISHED_TIMEOUT
                        : "WorkItemFinished failed: " + RunEnding.messageOf(f);
                log.error("work item {} instance {}: {}; not retried", spec.guid(), instance, why);
                journal.note(why);
              }
            })
        .run();
    return ok[0];
  }
}
