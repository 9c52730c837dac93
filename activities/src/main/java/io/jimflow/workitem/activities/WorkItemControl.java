package io.jimflow.workitem.activities;

import io.jimflow.workitem.RunAttempt;
import io.jimflow.workitem.RunGrant;
import io.jimflow.workitem.WorkItemState;
import java.util.Optional;

/**
 * The run activity's line to its item's workflow: claim the item, follow its state, report
 * shutdown.
 */
public interface WorkItemControl {

  /**
   * Takes the queued item; empty when the workflow refused (replaced, moved, cancelled meanwhile).
   */
  Optional<RunGrant> claim(String guid, long token);

  /** The item's current state as the workflow sees it. */
  WorkItemState state(String guid);

  /**
   * The attempt the item counts now (instance, token, state): the fence a handler's writes are
   * checked against.
   */
  RunAttempt attempt(String guid);

  /** Tells the workflow that the worker running the item is shutting down. */
  void reportShutdown(String guid, long token);
}
