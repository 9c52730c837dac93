package io.jimflow.dataplane;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.steps.RunProfileOutcome;
import io.jimflow.schedule.steps.RunProfileRun;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunRecords.StoredRunItem;
import io.jimflow.store.Store;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;

/**
 * The run profile runs of one pretend schedule execution, numbered as its steps, and what they
 * stored: the set-up the data plane tests share.
 */
final class ProfileRuns {

  private final String scheduleId;
  private final Initiator initiator;
  private int step;

  Initiator initiator() {
    return initiator;
  }

  ProfileRuns(String scheduleId, Initiator initiator) {
    this.scheduleId = scheduleId;
    this.initiator = initiator;
  }

  /** The next step's first attempt at running {@code profile} of {@code system}. */
  RunProfileRun next(String system, String profile) {
    return new RunProfileRun(
        system, profile, "exec-1", scheduleId, step++, system + " - " + profile, initiator, 1);
  }

  /** Every item the run of {@code outcome} recorded. */
  static List<StoredRunItem> items(Store store, Clock clock, RunProfileOutcome outcome) {
    return store.inTransaction(
        c -> new RunRecords(clock).items(c, outcome.runRecordId(), false, false, 1_000_000));
  }

  /** The single number {@code sql} selects. */
  static long count(Store store, String sql) {
    return store.inTransaction(
        c -> {
          try (Statement statement = c.createStatement();
              ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
          }
        });
  }
}
