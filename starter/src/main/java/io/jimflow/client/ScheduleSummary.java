package io.jimflow.client;

import io.jimflow.schedule.ExecutionStatus;
import java.time.Instant;
import java.util.List;

/**
 * One deployed schedule as {@code schedules list} shows it.
 *
 * @param trigger a one-line description of when it fires
 * @param managed whether jimflow created it; other schedules are listed but never changed by apply
 * @param lastRunAt when its latest execution started, whatever started it (schedule, person,
 *     program), null if it never ran
 * @param lastRunStatus null if it never ran
 * @param lastRunEndedAt null while it runs, and when unknown
 * @param lastRunMessage how it ended (from the store's execution history; null when no worker could
 *     read it)
 * @param skippedRuns scheduled runs Temporal skipped since the schedule was created, because the
 *     previous run was still going (overlap policy skip)
 * @param missedRuns scheduled runs Temporal missed since the schedule was created, because it could
 *     not start them within the catch-up window (server down, schedule paused)
 * @param builtIn one of jimflow's built-in schedules (may be re-timed or paused, not deleted)
 * @param scope the scope (schedules file) that owns it; null for built-ins, schedules jimflow did
 *     not create and those deployed before scopes
 */
public record ScheduleSummary(
    String id,
    String name,
    String trigger,
    String timeZone,
    boolean paused,
    boolean managed,
    Instant lastRunAt,
    String lastRunWorkflowId,
    ExecutionStatus lastRunStatus,
    List<Instant> nextRuns,
    boolean builtIn,
    String scope,
    Instant lastRunEndedAt,
    String lastRunMessage,
    long skippedRuns,
    long missedRuns) {

  public ScheduleSummary {
    nextRuns = nextRuns == null ? List.of() : List.copyOf(nextRuns);
  }
}
