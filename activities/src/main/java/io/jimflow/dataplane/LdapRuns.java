package io.jimflow.dataplane;

import io.jimflow.connector.ObjectSource;
import io.jimflow.connector.ldap.AccessLogChanges;
import io.jimflow.connector.ldap.LdapDirectory;
import io.jimflow.connector.ldap.LdapExports;
import io.jimflow.connector.ldap.LdapObjects;
import io.jimflow.connector.ldap.LdapSettings;
import io.jimflow.dataplane.Checkpoint.Phase;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunType;
import io.jimflow.store.Store;
import io.jimflow.store.Transaction;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Imports from and exports to an LDAP directory.
 *
 * <p>Imports read through {@link ImportRunner} like a CSV import: one transaction and checkpoint
 * per page. A run saves, before its first page, the watermark the next delta import starts from
 * (the newest accesslog {@code reqStart}, or a time for modifyTimestamp); a delta import starts
 * from the watermark of the system's newest <em>completed</em> run, so a failed run never moves it.
 *
 * <p>Exports are applied a page at a time, pipelined ({@link LdapExports#applyAll}). Before a page
 * is sent, a committed checkpoint records that its exports may reach the directory ({@link
 * Phase#SENDING}, bound: its last export). A page's outcomes (exported, or the LDAP error) are
 * committed in one transaction, batched (run items, anchors, Exported marks), while the next page
 * is in flight, together with the "sending" checkpoint of the page after that: the bound runs two
 * pages ahead, so the store's work overlaps the directory's. A retried attempt continues after the
 * last committed page and sends the exports up to the bound as {@link
 * LdapExports.Export#sentBefore}: an add that finds its entry found the one the lost attempt
 * created. So no change is applied twice and none is lost.
 */
final class LdapRuns {

  /**
   * How far before its start a full import (or a timestamp delta) puts its watermark: changes made
   * while it reads, and clock differences between worker and directory, are read again by the next
   * delta rather than missed (reading an unchanged object again changes nothing).
   */
  static final Duration WATERMARK_MARGIN = Duration.ofMinutes(10);

  private final Store store;
  private final RunRecords runRecords;
  private final ConnectorSpace connectorSpace;
  private final PendingExports pendingExports;
  private final Secrets secrets;
  private final Function<String, String> environment;
  private final Clock clock;
  private final ThresholdGuard guard;

  LdapRuns(
      Store store,
      RunRecords runRecords,
      ConnectorSpace connectorSpace,
      PendingExports pendingExports,
      Secrets secrets,
      Function<String, String> environment,
      Clock clock,
      ThresholdGuard guard) {
    this.store = store;
    this.runRecords = runRecords;
    this.connectorSpace = connectorSpace;
    this.pendingExports = pendingExports;
    this.secrets = secrets;
    this.environment = environment;
    this.clock = clock;
    this.guard = guard;
  }

  private LdapDirectory connect(RunContext run) {
    LdapSettings settings = LdapSettings.of(run.system.settings(), environment);
    return LdapDirectory.connect(settings, secrets.resolve(settings.password()));
  }

  void importRun(RunContext run, ObjectTypeConfig type, ImportRunner imports) {
    try (LdapDirectory directory = connect(run)) {
      LdapSettings settings = directory.settings();
      LdapObjects objects =
          new LdapObjects(
              directory, type.anchor(), type.attributes(), Set.copyOf(type.multiValued()));
      String saved = store.inTransaction(c -> runRecords.watermark(c, run.runId)).orElse(null);
      Supplier<ObjectSource> source;
      if (run.profile.runType() == RunType.FullImport) {
        if (saved == null) {
          saveWatermark(run, startWatermark(objects, settings));
        }
        source = objects::all;
      } else {
        String since =
            store
                .inTransaction(c -> runRecords.lastCompletedWatermark(c, run.system.id()))
                .orElse(null);
        if (settings.deltaSource() == LdapSettings.DeltaSource.accesslog) {
          // A resumed attempt reads no further than the first attempt did, so positions match.
          AccessLogChanges changes = objects.accessLogChanges(since, saved);
          if (saved == null) {
            saveWatermark(run, Objects.requireNonNullElse(changes.newestReqStart(), since));
          }
          run.total = changes.changes().size();
          source = () -> objects.of(changes);
        } else {
          if (saved == null) {
            saveWatermark(run, clockWatermark());
          }
          source = () -> objects.changedSince(since);
        }
      }
      imports.run(run, type, source);
    }
  }

  private String startWatermark(LdapObjects objects, LdapSettings settings) {
    if (settings.deltaSource() == LdapSettings.DeltaSource.accesslog) {
      String recent = clockWatermark();
      String newest = objects.accessLogChanges(recent, null).newestReqStart();
      return newest != null ? newest : recent;
    }
    return clockWatermark();
  }

  private String clockWatermark() {
    return LdapObjects.generalizedTime(clock.instant().minus(WATERMARK_MARGIN));
  }

  private void saveWatermark(RunContext run, String watermark) {
    if (watermark != null) {
      store.inTransaction(
          c -> {
            runRecords.saveWatermark(c, run.runId, watermark);
            return null;
          });
    }
  }

  void exportRun(RunContext run, ObjectTypeConfig type) {
    String system = run.system.id();
    long pending = store.inTransaction(c -> pendingExports.countPending(c, system));
    if (pending == 0) {
      return;
    }
    if (run.checkpoint.position() == 0 && !run.thresholdsApproved) {
      guard.beforeExport(run, Long.MAX_VALUE);
    }
    run.total = run.processed + pending;
    // Exports up to here may have reached the directory in an attempt that did not record them.
    long sentBefore = Phase.SENDING == run.checkpoint.phase() ? run.checkpoint.bound() : 0;
    int pageSize = run.profile.pageSize();
    try (LdapDirectory directory = connect(run)) {
      LdapExports exports =
          new LdapExports(directory, type.anchor(), Set.copyOf(type.multiValued()));
      long start = run.checkpoint.position();
      List<PendingExportRow> page =
          store.inTransaction(c -> pendingExports.findPendingAfter(c, system, start, pageSize));
      if (page.isEmpty()) {
        return;
      }
      List<PendingExportRow> second = next(system, page, pageSize);
      // The first two pages may reach the directory before the first's outcomes are recorded.
      List<PendingExportRow> covered = second.isEmpty() ? page : second;
      run.commitPage((transaction, items) -> sending(start, covered, sentBefore));
      Sent previous = null;
      List<PendingExportRow> following = second;
      while (!page.isEmpty()) {
        List<LdapExports.Export> batch = new ArrayList<>();
        for (PendingExportRow export : page) {
          batch.add(
              new LdapExports.Export(
                  export.change(),
                  export.anchor(),
                  export.attributes(),
                  export.id() <= sentBefore));
        }
        Sent recorded = previous;
        List<PendingExportRow> sending = page;
        List<PendingExportRow> upcoming = following;
        AtomicReference<List<PendingExportRow>> beyond = new AtomicReference<>(List.of());
        AtomicReference<RunContext.TooManyErrors> stopped = new AtomicReference<>();
        List<LdapExports.Result> results =
            exports.applyAll(
                batch,
                () -> {
                  // While this page is in flight: the previous page's outcomes, committed with the
                  // "sending" checkpoint of the page after the next (the next is covered already).
                  try {
                    run.commitPage(
                        (transaction, items) -> {
                          long position =
                              recorded == null
                                  ? run.checkpoint.position()
                                  : record(transaction, recorded, items).position();
                          List<PendingExportRow> far =
                              upcoming.isEmpty()
                                  ? List.of()
                                  : transaction.get(
                                      c ->
                                          pendingExports.findPendingAfter(
                                              c, system, last(upcoming), pageSize));
                          beyond.set(far);
                          List<PendingExportRow> reach =
                              !far.isEmpty() ? far : !upcoming.isEmpty() ? upcoming : sending;
                          return sending(position, reach, sentBefore);
                        });
                  } catch (RunContext.TooManyErrors e) {
                    // This page is in flight: its outcomes are recorded before the run stops.
                    stopped.set(e);
                  }
                });
        previous = new Sent(page, results);
        if (stopped.get() != null) {
          Sent last = previous;
          run.commitPage((transaction, items) -> record(transaction, last, items));
          throw stopped.get();
        }
        page = following;
        following = beyond.get();
      }
      Sent last = previous;
      run.commitPage((transaction, items) -> record(transaction, last, items));
    }
  }

  /** A page sent and its outcomes, in the page's order. */
  private record Sent(List<PendingExportRow> exports, List<LdapExports.Result> results) {}

  private List<PendingExportRow> next(String system, List<PendingExportRow> page, int pageSize) {
    return store.inTransaction(
        c -> pendingExports.findPendingAfter(c, system, last(page), pageSize));
  }

  private static long last(List<PendingExportRow> page) {
    return page.get(page.size() - 1).id();
  }

  /**
   * The checkpoint before {@code page} is sent: its exports, and those an earlier attempt may have
   * sent ({@code sentBefore}), may reach the directory; those up to {@code position} are recorded.
   */
  private static Checkpoint sending(long position, List<PendingExportRow> page, long sentBefore) {
    return new Checkpoint(Phase.SENDING, position, Math.max(last(page), sentBefore));
  }

  /**
   * Records a page's outcomes: exported (with the anchor a create was assigned), or the LDAP error;
   * the anchors and the Exported marks one statement each, the run items one bulk insert.
   */
  private Checkpoint record(Transaction transaction, Sent sent, RunContext.Page page) {
    List<PendingExportRow> exports = sent.exports();
    List<LdapExports.Result> results = sent.results();
    page.processed = exports.size();
    List<Long> exported = new ArrayList<>();
    Map<Long, String> anchors = new LinkedHashMap<>();
    for (int i = 0; i < exports.size(); i++) {
      PendingExportRow export = exports.get(i);
      LdapExports.Result result = results.get(i);
      String reference = result.dn() != null ? result.dn() : export.anchor();
      if (result.succeeded()) {
        exported.add(export.id());
        if (result.anchor() != null && !result.anchor().equals(export.anchor())) {
          anchors.put(export.csoId(), result.anchor());
        }
        page.change(reference, export.csoId(), export.mvoId(), ChangeType.Exported);
      } else {
        page.item(
            io.jimflow.store.RunItem.error(
                reference,
                export.csoId(),
                ChangeType.Exported,
                result.errorType(),
                result.errorMessage()));
      }
    }
    transaction.run(
        c -> {
          connectorSpace.updateAnchors(c, anchors);
          pendingExports.markExported(c, exported);
        });
    return new Checkpoint(Phase.EXPORTED, exports.get(exports.size() - 1).id());
  }
}
