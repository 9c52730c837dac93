package io.jimflow.maintenance;

import io.jimflow.steps.AbandonedRun;
import io.jimflow.steps.RunProfileExecutor;
import io.jimflow.steps.RunProfileOutcome;
import io.jimflow.steps.RunProfileRun;
import io.jimflow.steps.StepProgress;
import io.jimflow.store.Store;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Refuses run profiles of a connected system that maintenance is clearing or deleting: the step
 * fails at once, non-retryably, with a message naming the operation, instead of racing it.
 * Otherwise hands the run to the real executor.
 */
public final class GuardedRunProfileExecutor implements RunProfileExecutor, AutoCloseable {

  private final RunProfileExecutor delegate;
  private final Store store;
  private final SystemOperations operations;
  private final UnaryOperator<String> systemId;

  /**
   * @param systemId maps the step's connected system (an id or a name) to its id; unknown ones map
   *     to themselves (the executor then reports them)
   */
  public GuardedRunProfileExecutor(
      RunProfileExecutor delegate,
      Store store,
      SystemOperations operations,
      UnaryOperator<String> systemId) {
    this.delegate = delegate;
    this.store = store;
    this.operations = operations;
    this.systemId = systemId;
  }

  @Override
  public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
    String id = systemId.apply(run.connectedSystem());
    store.inTransaction(
        c -> {
          operations.requireAvailable(c, id, run.runProfile());
          return null;
        });
    return delegate.execute(run, progress);
  }

  @Override
  public Optional<String> abandon(AbandonedRun abandoned) {
    return delegate.abandon(abandoned);
  }

  /** Closes the real executor if it holds resources (its store). */
  @Override
  public void close() throws Exception {
    if (delegate instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }
}
