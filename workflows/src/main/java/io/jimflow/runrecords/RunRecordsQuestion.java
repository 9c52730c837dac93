package io.jimflow.runrecords;

/**
 * What a program or the CLI asks of the records in the store: run records (JIM's audit
 * "activities") or execution records (the execution history).
 *
 * @param kind list run records, show one, list one's items; list execution records, show one, list
 *     each schedule's latest
 * @param connectedSystem for {@link Kind#List}: only this system's records (id); null for all
 * @param status for {@link Kind#List} and {@link Kind#Executions}: only records with this status;
 *     null for all
 * @param runRecordId for {@link Kind#Show} and {@link Kind#Items}
 * @param errorsOnly for {@link Kind#Items}: only items with errors
 * @param limit at most this many records or items
 * @param scheduleId for {@link Kind#Executions}: only this schedule's executions; null for all
 * @param executionId for {@link Kind#Execution}: the execution's workflow id
 */
public record RunRecordsQuestion(
    Kind kind,
    String connectedSystem,
    String status,
    String runRecordId,
    boolean errorsOnly,
    int limit,
    String scheduleId,
    String executionId) {

  public RunRecordsQuestion(
      Kind kind,
      String connectedSystem,
      String status,
      String runRecordId,
      boolean errorsOnly,
      int limit) {
    this(kind, connectedSystem, status, runRecordId, errorsOnly, limit, null, null);
  }

  /** Execution records newest first, optionally of one schedule and in one status. */
  public static RunRecordsQuestion executions(String scheduleId, String status, int limit) {
    return new RunRecordsQuestion(
        Kind.Executions, null, status, null, false, limit, scheduleId, null);
  }

  /** One execution record with its step records. */
  public static RunRecordsQuestion execution(String executionId) {
    return new RunRecordsQuestion(Kind.Execution, null, null, null, false, 1, null, executionId);
  }

  /** Each schedule's latest execution record (whatever started it), for at most limit schedules. */
  public static RunRecordsQuestion latestExecutions(int limit) {
    return new RunRecordsQuestion(
        Kind.LatestExecutions, null, null, null, false, limit, null, null);
  }

  public enum Kind {
    List,
    Show,
    Items,
    Executions,
    Execution,
    LatestExecutions
  }
}
