package io.jimflow.dataplane;

import io.jimflow.connector.ImportRow;
import io.jimflow.connector.ObjectSource;
import io.jimflow.dataplane.Checkpoint.Phase;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.store.AttributesJson;
import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ChangeHistory.CsoChange;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.ConnectorSpace.CsoSummary;
import io.jimflow.store.ConnectorSpace.CsoUpdate;
import io.jimflow.store.ConnectorSpace.NewCso;
import io.jimflow.store.CsoRow;
import io.jimflow.store.CsoState;
import io.jimflow.store.ExportStatus;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.store.Repositories;
import io.jimflow.store.RunType;
import io.jimflow.store.Total;
import io.jimflow.store.Transaction;
import io.jimflow.sync.ContentHash;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.MvoState;
import io.jimflow.sync.OutboundRule;
import io.jimflow.sync.SyncEngine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Full and Delta Import from an object source (a CSV file, a directory): new objects added, changed
 * ones (by content hash) updated; a full import also marks objects absent from the file as deleted.
 * An import of a system that sync rules export to is a confirming import: it confirms exports it
 * finds applied and queues corrective exports for drift.
 *
 * <p>One bad object is one error item, never a stopped import: a row the source could not read, one
 * the store cannot hold ({@link ImportRowCheck}), and one the store refuses when its page is
 * written (the page is then written one row at a time) each become an error item naming where the
 * row is, and the rest is imported.
 */
final class ImportRunner {

  private final ConnectorSpace connectorSpace;
  private final Metaverse metaverse;
  private final PendingExports pendingExports;
  private final ChangeHistory history;
  private final SyncEngine engine;
  private final ThresholdGuard guard;

  ImportRunner(Repositories repositories, SyncEngine engine, ThresholdGuard guard) {
    this.connectorSpace = repositories.connectorSpace();
    this.metaverse = repositories.metaverse();
    this.pendingExports = repositories.pendingExports();
    this.history = repositories.history();
    this.engine = engine;
    this.guard = guard;
  }

  void run(RunContext run, ObjectTypeConfig type, Supplier<ObjectSource> source) {
    List<OutboundRule> exportRules =
        engine.rules().outbound().stream()
            .filter(
                r ->
                    r.connectedSystem().equals(run.system.id())
                        && r.objectType().equals(type.name()))
            .toList();
    if (run.checkpoint.phase() == Phase.ROWS) {
      // A cancel that came before the first page is seen here, so that it commits no page.
      run.heartbeat();
      try (ObjectSource reader = source.get()) {
        reader.skip(run.checkpoint.position());
        List<ImportRow> rows;
        while (!(rows = reader.nextPage(run.profile.pageSize())).isEmpty()) {
          run.commitEach(
              rows.stream().map(ImportRowCheck::check).toList(),
              some ->
                  (transaction, work) ->
                      importPage(transaction, run, type, exportRules, some, work),
              (row, reason) ->
                  (transaction, work) -> {
                    work.processed = 1;
                    String where = row.location() != null ? row.location() : row.reference();
                    work.error(
                        where, null, "StoreRefused", where + ": the store refused it: " + reason);
                    keepAsItWas(transaction, run, type, row);
                    return new Checkpoint(Phase.ROWS, row.position());
                  });
        }
      }
      run.commitPage((transaction, work) -> new Checkpoint(Phase.ABSENT, 0));
    }
    if (run.profile.runType() == RunType.FullImport) {
      if (run.checkpoint.phase() == Phase.ABSENT
          && run.checkpoint.position() == 0
          && !run.thresholdsApproved) {
        guard.beforeMarkingAbsent(run);
      }
      while (run.checkpoint.phase() == Phase.ABSENT) {
        run.commitPage((transaction, work) -> deleteAbsent(transaction, run, work));
      }
    }
  }

  /**
   * An object whose row the store refused is still in the source: it stays as it was, not absent,
   * and the next import reads it again.
   */
  private void keepAsItWas(
      Transaction transaction, RunContext run, ObjectTypeConfig type, ImportRow row) {
    if (row.anchor() == null || row.deleted()) {
      return;
    }
    List<Long> ids =
        transaction
            .get(
                c ->
                    connectorSpace.findSummariesByAnchors(
                        c, run.system.id(), type.name(), List.of(row.anchor())))
            .values()
            .stream()
            .map(CsoSummary::id)
            .toList();
    transaction.run(c -> connectorSpace.markSeen(c, ids, run.runId));
  }

  private Checkpoint importPage(
      Transaction transaction,
      RunContext run,
      ObjectTypeConfig type,
      List<OutboundRule> exportRules,
      List<ImportRow> rows,
      RunContext.Page page) {
    String system = run.system.id();
    page.processed = rows.size();
    Map<String, ImportRow> valid = new LinkedHashMap<>();
    Map<String, ImportRow> deleted = new LinkedHashMap<>();
    List<String> unreadable = new ArrayList<>();
    for (ImportRow row : rows) {
      if (row.deleted()) {
        deleted.put(row.anchor(), row);
      } else if (row.isError()) {
        page.error(row.reference(), null, row.errorType(), row.errorMessage());
        if (row.anchor() != null) {
          unreadable.add(row.anchor());
        }
      } else if (valid.containsKey(row.anchor())) {
        page.error(row.reference(), null, "DuplicateAnchor", duplicateMessage(row));
      } else {
        valid.put(row.anchor(), row);
      }
    }
    Map<String, CsoSummary> existing =
        transaction.get(
            c -> connectorSpace.findSummariesByAnchors(c, system, type.name(), valid.keySet()));
    List<NewCso> added = new ArrayList<>();
    List<CsoUpdate> updated = new ArrayList<>();
    List<Long> unchanged = new ArrayList<>();
    List<CsoChange> changes = new ArrayList<>();
    Map<Long, Map<String, String>> changedTargets = new HashMap<>();
    for (ImportRow row : valid.values()) {
      CsoSummary cso = existing.get(row.anchor());
      String hash = ContentHash.of(row.attributes());
      if (cso == null) {
        added.add(
            new NewCso(
                system,
                type.name(),
                row.anchor(),
                AttributesJson.write(row.attributes()),
                hash,
                CsoState.Normal,
                null,
                null,
                true,
                run.runId));
      } else if (run.runId.equals(cso.lastSeenRun())) {
        page.error(row.reference(), cso.id(), "DuplicateAnchor", duplicateMessage(row));
      } else if (cso.state() == CsoState.Normal && hash.equals(cso.contentHash())) {
        unchanged.add(cso.id());
      } else {
        updated.add(
            new CsoUpdate(
                cso.id(),
                AttributesJson.write(row.attributes()),
                hash,
                CsoState.Normal,
                run.runId));
        changes.add(
            new CsoChange(cso.id(), system, row.anchor(), ChangeType.Updated, row.attributes()));
        page.change(row.anchor(), cso.id(), cso.mvoId(), ChangeType.Updated);
        changedTargets.put(cso.id(), row.attributes());
      }
    }
    if (!unreadable.isEmpty()) {
      // An object whose row is in error is still in the source: it stays as it was, not absent,
      // and the next import reads it again.
      transaction
          .get(c -> connectorSpace.findSummariesByAnchors(c, system, type.name(), unreadable))
          .values()
          .forEach(cso -> unchanged.add(cso.id()));
    }
    Map<String, Long> addedIds = transaction.get(c -> connectorSpace.insert(c, added));
    for (NewCso cso : added) {
      long id = addedIds.get(cso.anchor());
      changes.add(
          new CsoChange(
              id, system, cso.anchor(), ChangeType.Added, valid.get(cso.anchor()).attributes()));
      page.change(cso.anchor(), id, null, ChangeType.Added);
    }
    transaction.run(
        c -> {
          connectorSpace.update(c, updated);
          connectorSpace.markSeen(c, unchanged, run.runId);
          history.recordCsoChanges(c, run.runId, changes);
        });
    if (!exportRules.isEmpty() && !changedTargets.isEmpty()) {
      confirmAndDetectDrift(transaction, run, exportRules, existing, changedTargets, page);
    }
    if (!deleted.isEmpty()) {
      List<CsoSummary> gone =
          transaction
              .get(
                  c ->
                      connectorSpace.findSummariesByAnchors(
                          c, system, type.name(), deleted.keySet()))
              .values()
              .stream()
              .filter(cso -> cso.state() != CsoState.Obsolete)
              .toList();
      applyDeletions(transaction, run, gone, page);
    }
    long last = rows.get(rows.size() - 1).position();
    return new Checkpoint(Phase.ROWS, last);
  }

  /**
   * For changed target objects: exports whose values arrived are confirmed; where no export is
   * outstanding, values differing from what the MVO flows out get a corrective export.
   */
  private void confirmAndDetectDrift(
      Transaction transaction,
      RunContext run,
      List<OutboundRule> exportRules,
      Map<String, CsoSummary> existing,
      Map<Long, Map<String, String>> imported,
      RunContext.Page page) {
    Map<Long, List<PendingExportRow>> open =
        transaction.get(c -> pendingExports.findOpenByCso(c, imported.keySet()));
    List<Long> confirmed = new ArrayList<>();
    Map<Long, CsoSummary> byId = new HashMap<>();
    existing.values().forEach(c -> byId.put(c.id(), c));
    List<Long> settled = new ArrayList<>();
    for (Map.Entry<Long, Map<String, String>> entry : imported.entrySet()) {
      List<PendingExportRow> exports = open.getOrDefault(entry.getKey(), List.of());
      boolean outstanding = false;
      for (PendingExportRow export : exports) {
        if (export.status() == ExportStatus.Exported
            && SyncEngine.isConfirmed(export.change(), export.attributes(), entry.getValue())) {
          confirmed.add(export.id());
          page.change(
              export.anchor(), export.csoId(), export.mvoId(), ChangeType.PendingExportConfirmed);
        } else {
          outstanding = true;
        }
      }
      if (!outstanding && byId.get(entry.getKey()).mvoId() != null) {
        settled.add(entry.getKey());
      }
    }
    transaction.run(c -> pendingExports.markConfirmed(c, confirmed));
    if (settled.isEmpty()) {
      return;
    }
    List<String> settledMvoIds = settled.stream().map(id -> byId.get(id).mvoId()).toList();
    Map<String, MvoRow> mvos = transaction.get(c -> metaverse.findByIds(c, settledMvoIds));
    List<NewPendingExport> corrections = new ArrayList<>();
    for (Long csoId : settled) {
      CsoSummary cso = byId.get(csoId);
      MvoRow mvo = mvos.get(cso.mvoId());
      if (mvo == null) {
        continue;
      }
      MvoState state =
          new MvoState(mvo.id(), mvo.objectType(), mvo.attributes(), mvo.deletionEligibleAt());
      for (OutboundRule rule : exportRules) {
        if (!rule.mvoType().equals(mvo.objectType())) {
          continue;
        }
        Map<String, String> drift = SyncEngine.detectDrift(rule, state, imported.get(csoId));
        if (!drift.isEmpty()) {
          corrections.add(
              new NewPendingExport(
                  run.system.id(), csoId, mvo.id(), ExportChange.Update, drift, true, run.runId));
          page.change(cso.anchor(), csoId, mvo.id(), ChangeType.DriftCorrection);
          page.delta.increment(Total.PENDING_EXPORTS);
        }
      }
    }
    transaction.run(c -> pendingExports.insert(c, corrections));
  }

  /** One page of objects the full import did not find: deleted, or a deprovisioning confirmed. */
  private Checkpoint deleteAbsent(Transaction transaction, RunContext run, RunContext.Page page) {
    List<CsoRow> absent =
        transaction.get(
            c ->
                connectorSpace.findNotSeen(
                    c,
                    run.system.id(),
                    run.runId,
                    run.checkpoint.position(),
                    run.profile.pageSize()));
    if (absent.isEmpty()) {
      return new Checkpoint(Phase.DELETIONS, 0);
    }
    applyDeletions(transaction, run, absent.stream().map(CsoSummary::of).toList(), page);
    return new Checkpoint(Phase.ABSENT, absent.get(absent.size() - 1).id());
  }

  /**
   * Objects the system no longer has: a deprovisioning's Delete export is confirmed, any other
   * object is marked obsolete for the synchronisation to disconnect.
   */
  private void applyDeletions(
      Transaction transaction, RunContext run, List<CsoSummary> absent, RunContext.Page page) {
    if (absent.isEmpty()) {
      return;
    }
    Map<Long, List<PendingExportRow>> open =
        transaction.get(
            c -> pendingExports.findOpenByCso(c, absent.stream().map(CsoSummary::id).toList()));
    List<Long> obsolete = new ArrayList<>();
    List<Long> gone = new ArrayList<>();
    List<Long> confirmed = new ArrayList<>();
    List<CsoChange> changes = new ArrayList<>();
    for (CsoSummary cso : absent) {
      PendingExportRow deletion =
          open.getOrDefault(cso.id(), List.of()).stream()
              .filter(e -> e.change() == ExportChange.Delete && e.status() == ExportStatus.Exported)
              .findFirst()
              .orElse(null);
      if (deletion != null) {
        confirmed.add(deletion.id());
        gone.add(cso.id());
        page.change(cso.anchor(), cso.id(), deletion.mvoId(), ChangeType.PendingExportConfirmed);
      } else {
        obsolete.add(cso.id());
        page.change(cso.anchor(), cso.id(), cso.mvoId(), ChangeType.Deleted);
      }
      changes.add(new CsoChange(cso.id(), run.system.id(), cso.anchor(), ChangeType.Deleted, null));
    }
    transaction.run(
        c -> {
          pendingExports.markConfirmed(c, confirmed);
          connectorSpace.delete(c, gone);
          connectorSpace.markObsolete(c, obsolete);
          history.recordCsoChanges(c, run.runId, changes);
        });
  }

  private static String duplicateMessage(ImportRow row) {
    return row.location() + ": anchor " + row.anchor() + " appears more than once in the import";
  }
}
