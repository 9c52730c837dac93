package io.jimflow.schedule.steps;

import io.jimflow.schedule.StepFailures;
import io.temporal.failure.ApplicationFailure;
import java.util.Optional;

/**
 * The {@link RunProfileExecutor} of a worker without a connected-system data plane: every
 * RunProfile step fails at once, without retries, with a configuration error naming the connected
 * system.
 */
public final class UnconfiguredRunProfileExecutor implements RunProfileExecutor {

  @Override
  public RunProfileOutcome execute(RunProfileRun run, StepProgress progress) {
    throw ApplicationFailure.newNonRetryableFailure(
        "Step '"
            + run.stepName()
            + "': connected system '"
            + run.connectedSystem()
            + "' is not known to this worker (no run profile executor is configured), so run"
            + " profile '"
            + run.runProfile()
            + "' cannot run",
        StepFailures.CONFIGURATION_ERROR);
  }

  @Override
  public Optional<String> abandon(AbandonedRun abandoned) {
    // Nothing was started, so nothing is left open.
    return Optional.empty();
  }
}
