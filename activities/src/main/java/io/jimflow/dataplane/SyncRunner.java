package io.jimflow.dataplane;

import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ChangeHistory.MvoChange;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.CsoRow;
import io.jimflow.store.Deprovisioning;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.Repositories;
import io.jimflow.store.RunType;
import io.jimflow.store.Total;
import io.jimflow.store.Transaction;
import io.jimflow.sync.SyncEngine;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Full and Delta Synchronisation of one connected system, page by page, each page in one
 * transaction with its checkpoint: each CSO (all, or those changed since the last synchronisation)
 * is projected, joined, flowed or disconnected as the sync engine decides ({@link InboundSync});
 * MVOs it changed are provisioned to, updated in or deprovisioned from target systems as pending
 * exports ({@link Provisioning}); then MVOs whose deletion grace period has passed are deleted.
 */
final class SyncRunner {

  private final ConnectorSpace connectorSpace;
  private final Metaverse metaverse;
  private final ChangeHistory history;
  private final Clock clock;
  private final InboundSync inbound;
  private final Provisioning provisioning;
  private final Deprovisioning deprovisioning;

  SyncRunner(Repositories repositories, SyncEngine engine, Clock clock) {
    this.connectorSpace = repositories.connectorSpace();
    this.metaverse = repositories.metaverse();
    this.history = repositories.history();
    this.clock = clock;
    this.inbound = new InboundSync(repositories, engine);
    this.provisioning =
        new Provisioning(repositories.connectorSpace(), repositories.pendingExports(), engine);
    this.deprovisioning = new Deprovisioning(engine, repositories);
  }

  void run(RunContext run) {
    while (run.checkpoint.phase().equals(Checkpoint.SYNC)) {
      run.commitPage((transaction, page) -> syncPage(transaction, run, page));
    }
    while (run.checkpoint.phase().equals(Checkpoint.DELETIONS)) {
      run.commitPage((transaction, page) -> deleteDueMvos(transaction, run, page));
    }
  }

  private Checkpoint syncPage(Transaction transaction, RunContext run, RunContext.Page page) {
    boolean pendingOnly = run.profile.runType() == RunType.DeltaSynchronisation;
    List<CsoRow> csos =
        transaction.get(
            c ->
                connectorSpace.pageForSync(
                    c,
                    run.system.id(),
                    run.checkpoint.position(),
                    run.profile.pageSize(),
                    pendingOnly));
    if (csos.isEmpty()) {
      return new Checkpoint(Checkpoint.DELETIONS, 0);
    }
    page.processed = csos.size();
    Instant now = clock.instant();
    SyncPageState state = inbound.loadState(transaction, csos);
    InboundSync.Changes changes = inbound.decide(csos, state, page);
    inbound.write(transaction, changes);
    // Taken before deletion dates are set: a new deletion date alone is nothing to export.
    Set<String> exportCandidates = changes.exportCandidates(state);
    inbound.scheduleDeletions(changes.deletionChecks(), state, now);
    List<MvoRow> changed = state.changed().stream().map(state::mvo).toList();
    transaction.run(c -> metaverse.update(c, changed));
    provisioning.provision(transaction, run, exportCandidates, state, page);
    inbound.recordHistory(transaction, run.runId, changes);
    return new Checkpoint(Checkpoint.SYNC, csos.get(csos.size() - 1).id());
  }

  /** Deletes MVOs whose grace period has passed, deprovisioning them where rules say so. */
  private Checkpoint deleteDueMvos(Transaction transaction, RunContext run, RunContext.Page page) {
    List<MvoRow> due =
        transaction.get(
            c -> metaverse.findDueForDeletion(c, clock.instant(), run.profile.pageSize()));
    if (due.isEmpty()) {
      return new Checkpoint("done", 0);
    }
    List<MvoChange> changes = new ArrayList<>();
    for (Deprovisioning.MvoDeletion deletion :
        transaction.get(c -> deprovisioning.delete(c, due, run.runId))) {
      MvoRow mvo = deletion.mvo();
      for (CsoRow target : deletion.deprovisioned()) {
        page.change(target.anchor(), target.id(), mvo.id(), ChangeType.Deprovisioned);
        page.delta.increment(Total.PENDING_EXPORTS);
      }
      page.change(
          mvo.attributes().getOrDefault("displayName", mvo.id()),
          null,
          mvo.id(),
          ChangeType.Deleted);
      changes.add(new MvoChange(mvo.id(), ChangeType.Deleted, null));
    }
    transaction.run(c -> history.recordMvoChanges(c, run.runId, changes));
    return new Checkpoint(Checkpoint.DELETIONS, 0);
  }
}
