package io.jimflow.schedule.steps;

import io.jimflow.schedule.StepStatus;

/**
 * A run profile run whose step ended without finalizing its run record.
 *
 * @param status Cancelled or FailedWithError
 * @param reason why, for the run record (e.g. "step timed out after PT2H")
 */
public record AbandonedRun(RunProfileRun run, StepStatus status, String reason) {}
