package io.jimflow.runs;

/**
 * What a program or the CLI asks of the run records (JIM's audit "activities") in the store.
 *
 * @param kind list records, show one record, or list one record's items
 * @param connectedSystem for {@link Kind#List}: only this system's records (id); null for all
 * @param status for {@link Kind#List}: only records with this status; null for all
 * @param runRecordId for {@link Kind#Show} and {@link Kind#Items}
 * @param errorsOnly for {@link Kind#Items}: only items with errors
 * @param limit at most this many records or items
 */
public record RunRecordsQuestion(
    Kind kind,
    String connectedSystem,
    String status,
    String runRecordId,
    boolean errorsOnly,
    int limit) {

  public enum Kind {
    List,
    Show,
    Items
  }
}
