package io.jimflow.schedule;

import java.time.Instant;

/**
 * One step of an execution as the store keeps it (JIM's Activity per task).
 *
 * @param position the step's 0-based place in the execution's plan (its key with the execution)
 * @param index the step's group index from the schedule
 * @param type RunProfile, Executable or SqlScript
 * @param target what the step runs: "system / run profile", or the program's path
 * @param attempts how many attempts started (0 for a step that never started)
 * @param message why it failed or what it reported, possibly cut short
 * @param runRecordId the run record the step produced (RunProfile steps); null if none
 */
public record StepRecord(
    int position,
    int index,
    String name,
    String type,
    String target,
    StepStatus status,
    int attempts,
    Instant startedAt,
    Instant endedAt,
    String message,
    String runRecordId) {}
