package io.jimflow.workitem.activities;

import java.util.concurrent.Callable;

/**
 * Guards a handler's writes: {@link #check()} throws {@link WorkItemFencedException} once the call
 * it belongs to no longer counts (a Killed attempt, an overrun WorkItemFinished).
 */
@FunctionalInterface
public interface WorkItemFence {

  /** A fence that never refuses: for handlers called outside a worker, as tests do. */
  WorkItemFence OPEN = () -> {};

  /** Returns when the call still counts; throws {@link WorkItemFencedException} otherwise. */
  void check();

  /** Runs {@code write} only after {@link #check()} passed. */
  default <T> T write(Callable<T> write) throws Exception {
    check();
    return write.call();
  }
}
