package io.jimflow.maintenance;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * A maintenance task on one connected system.
 *
 * @param connectedSystem the system's id
 * @param deleteHistory clearing only: also delete the change history of its objects
 * @param initiator who asked; recorded in the run record and, for deletions, with the MVOs it marks
 */
public record SystemMaintenanceInput(
    String connectedSystem, boolean deleteHistory, Initiator initiator) {}
