package io.jimflow.schedule;

/**
 * A step that ended without a result from its runner, to be finalized.
 *
 * @param run the step as it was requested
 * @param attempts how many attempts had started
 * @param status Cancelled or FailedWithError
 * @param reason why it ended, for the run record
 */
public record AbandonStepRequest(
    StepRunRequest run, int attempts, StepStatus status, String reason) {}
