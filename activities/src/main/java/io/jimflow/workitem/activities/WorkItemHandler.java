package io.jimflow.workitem.activities;

/**
 * One kind of work item: the class that does the item's actual work (seed 003's worker class).
 *
 * <p>Register one bean per kind in the worker; the workflow finds it by {@link #kind()}. A handler
 * must be stateless: everything an item needs lives in its JSON state, which the handler saves as
 * progress and which a restarted instance continues from.
 */
public interface WorkItemHandler {

  /** The kind name items are scheduled with. */
  String kind();

  /**
   * Does (part of) the item's work. Call {@link WorkItemRunContext#saveProgress} after every unit
   * of work and end soon once {@link WorkItemRunContext#shouldFinish()} is true; an item that does
   * not end within the grace period is Killed.
   *
   * @return how the run ended; an exception makes the instance end in Error
   */
  WorkItemRunOutcome run(WorkItemRunContext context) throws Exception;

  /**
   * WorkItemFinished: called exactly once per instance that was not replaced, also for an item
   * cancelled before its start (state Removed). Limited to one minute and never retried.
   */
  default void finished(WorkItemFinishedContext context) throws Exception {}
}
