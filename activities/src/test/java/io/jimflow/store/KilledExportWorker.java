package io.jimflow.store;

import java.time.Clock;
import java.util.List;

/**
 * The worker process {@link KilledWorkerStoreTest} kills: one attempt of an export run, doing to
 * the store what the LDAP export does ({@code LdapRuns#exportRun} and {@code
 * RunContext#commitPage}), without the directory. It takes the run record over with its attempt
 * number, resumes after the checkpoint, totals and items the earlier attempts committed, reads the
 * system's Pending exports a page at a time in a transaction of its own, and commits each export in
 * one transaction: marks it Exported, writes its run item, saves the run's progress with the
 * export's id as checkpoint.
 *
 * <p>Arguments: the store's JDBC URL, user and password, the connected system, the run record's id
 * and the attempt. Prints {@value #EXPORTING} once its first export has committed. When no Pending
 * export is left it ends the run record as Complete, prints {@value #FINISHED} and exits.
 */
final class KilledExportWorker {

  /** The line the worker prints once its first export has committed. */
  static final String EXPORTING = "exporting";

  /** The line the worker prints when it has exported everything and ended the run record. */
  static final String FINISHED = "finished";

  /** The LDAP export's page (a run profile's default {@code pageSize}). */
  static final int PAGE_SIZE = 2_000;

  private final Store store;
  private final String system;
  private final String runId;
  private final int attempt;
  private final PendingExports pendingExports = new PendingExports(Clock.systemUTC());
  private final RunRecords runRecords = new RunRecords(Clock.systemUTC());
  private RunTotals totals;
  private long processed;
  private long itemsWritten;
  private long position;
  private boolean announced;

  private KilledExportWorker(Store store, String system, String runId, int attempt) {
    this.store = store;
    this.system = system;
    this.runId = runId;
    this.attempt = attempt;
  }

  public static void main(String[] args) {
    try (Store store = Store.open(new StoreSettings(args[0], args[1], args[2], 2))) {
      new KilledExportWorker(store, args[3], args[4], Integer.parseInt(args[5])).run();
    }
    System.out.println(FINISHED);
    System.out.flush();
  }

  private void run() {
    RunRecord record =
        store.inTransaction(
            c -> {
              runRecords.recordAttempt(c, runId, attempt);
              return runRecords.find(c, runId).orElseThrow();
            });
    totals = record.totals();
    processed = record.objectsProcessed();
    itemsWritten = record.itemsWritten();
    position = position(record.checkpoint());
    while (true) {
      List<PendingExportRow> page =
          store.inTransaction(c -> pendingExports.findPendingAfter(c, system, position, PAGE_SIZE));
      if (page.isEmpty()) {
        break;
      }
      for (PendingExportRow export : page) {
        export(export);
      }
    }
    store.inTransaction(
        c -> runRecords.finish(c, runId, RunStatus.Complete, null, totals, null, processed));
  }

  /** One export's transaction, as {@code RunContext#commitPage} commits a page of one export. */
  private void export(PendingExportRow export) {
    List<RunItem> items =
        List.of(
            RunItem.change(export.anchor(), export.csoId(), export.mvoId(), ChangeType.Exported));
    RunTotals after = totals.copy();
    after.increment(Total.EXPORTED);
    String checkpoint = "exported:" + export.id();
    store.transact(
        transaction -> {
          transaction.run(
              c -> {
                pendingExports.markExported(c, List.of(export.id()));
                runRecords.addItems(c, runId, itemsWritten, items);
                runRecords.saveProgress(
                    c,
                    runId,
                    attempt,
                    after,
                    processed + 1,
                    itemsWritten + items.size(),
                    checkpoint);
              });
          return null;
        });
    totals = after;
    processed++;
    itemsWritten += items.size();
    position = export.id();
    if (!announced) {
      System.out.println(EXPORTING);
      System.out.flush();
      announced = true;
    }
  }

  /** The export id a checkpoint {@code exported:<id>} names; 0 before the first. */
  static long position(String checkpoint) {
    return checkpoint == null || checkpoint.isBlank()
        ? 0
        : Long.parseLong(checkpoint.substring(checkpoint.lastIndexOf(':') + 1));
  }
}
