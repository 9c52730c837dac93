package io.jimflow.schedule.steps;

import io.jimflow.schedule.PreviewRequest;
import io.jimflow.schedule.SchedulePreview;
import java.util.List;
import java.util.Optional;

/**
 * Runs one run profile (Full/Delta Import, Full/Delta Synchronisation, Export) of a connected
 * system for a RunProfile step. The identity data plane implements it; the step activity calls it.
 *
 * <p>Implementations report progress and a checkpoint through {@link StepProgress} after every unit
 * of work, and resume from {@link StepProgress#lastCheckpoint()} when an earlier attempt was lost.
 * They throw a non-retryable {@code ApplicationFailure} for configuration errors (unknown connected
 * system or run profile) and let {@code ActivityCompletionException} (cancellation) propagate.
 */
public interface RunProfileExecutor {

  RunProfileOutcome execute(RunProfileRun run, StepProgress progress);

  /**
   * Finalizes what an attempt left open when the step ended without finalizing it itself (its
   * worker crashed and retries ran out, it timed out, or it was cancelled), e.g. a run record still
   * InProgress. Called once by the workflow, from a detached scope; must be idempotent.
   *
   * @return the id of the step's run record, finalized now or before; empty when it has none
   */
  Optional<String> abandon(AbandonedRun abandoned);

  /**
   * The resources a run of this profile holds exclusively (see {@code Resources}): the connected
   * system by its name, and the metaverse for a synchronisation. Without a data plane, the system
   * as the step names it.
   */
  /**
   * Runs the definition's imports and synchronisations in preview mode: what they would change,
   * with nothing changed.
   */
  default SchedulePreview preview(PreviewRequest request, StepProgress progress) {
    throw new UnsupportedOperationException("this worker has no data plane to preview");
  }

  default List<String> resources(String connectedSystem, String runProfile) {
    return List.of(connectedSystem);
  }
}
