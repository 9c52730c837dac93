package io.jimflow.maintenance;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * One housekeeping cycle.
 *
 * @param initiator who started it (the built-in schedule, or a user); null means jimflow itself
 * @param maxMvosPerCycle the cap of MVOs deleted; null for the worker's configured cap (50)
 */
public record HousekeepingInput(Initiator initiator, Integer maxMvosPerCycle) {}
