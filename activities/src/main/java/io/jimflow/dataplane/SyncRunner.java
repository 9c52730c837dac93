package io.jimflow.dataplane;

import io.jimflow.dataplane.Checkpoint.Phase;
import io.jimflow.dataplane.RunContext.PageWork;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Full and Delta Synchronisation of one connected system, page by page, each page in one
 * transaction with its checkpoint: each CSO (all, or those changed since the last synchronisation)
 * is projected, joined, flowed or disconnected as the sync engine decides ({@link InboundSync});
 * MVOs it changed are provisioned to, updated in or deprovisioned from target systems as pending
 * exports ({@link Provisioning}); then MVOs whose deletion grace period has passed are deleted.
 *
 * <p>A CSO whose page the store refuses, or an MVO whose deletion it refuses, is one error item:
 * its page is written again one object at a time, and the others go on. A refused CSO stays pending
 * for the next synchronisation; a refused MVO stays due.
 *
 * <p>With more than one store connection configured, a page's CSOs are written on several at once
 * ({@link PartitionedSync}), with the same results, checkpoints and error handling.
 */
final class SyncRunner {

  private final ConnectorSpace connectorSpace;
  private final Metaverse metaverse;
  private final ChangeHistory history;
  private final Clock clock;
  private final InboundSync inbound;
  private final Provisioning provisioning;
  private final Deprovisioning deprovisioning;
  private final PartitionedSync partitioned;

  /**
   * @param connections the store connections a page may be written on at once (the worker's {@code
   *     jimflow.sync.connections}), bounded by {@link PartitionedSync#bounded}
   */
  SyncRunner(Repositories repositories, SyncEngine engine, Clock clock, int connections) {
    this.connectorSpace = repositories.connectorSpace();
    this.metaverse = repositories.metaverse();
    this.history = repositories.history();
    this.clock = clock;
    this.inbound = new InboundSync(repositories, engine);
    this.provisioning =
        new Provisioning(repositories.connectorSpace(), repositories.pendingExports(), engine);
    this.deprovisioning = new Deprovisioning(engine, repositories);
    this.partitioned =
        new PartitionedSync(repositories.connectorSpace(), inbound, engine, connections);
  }

  void run(RunContext run) {
    boolean pendingOnly = run.profile.runType() == RunType.DeltaSynchronisation;
    Function<List<CsoRow>, PageWork> work =
        some -> (transaction, page) -> syncPage(transaction, run, some, page);
    BiFunction<CsoRow, String, PageWork> refusedCso = SyncRunner::refusedSync;
    if (run.checkpoint.phase() == Phase.SYNC) {
      // A page an earlier attempt announced on several connections is finished first, whatever
      // this worker's configuration.
      partitioned.finishAnnounced(run, work, refusedCso);
    }
    while (run.checkpoint.phase() == Phase.SYNC) {
      long after = run.checkpoint.position();
      List<CsoRow> csos =
          run.read(
              c ->
                  connectorSpace.pageForSync(
                      c, run.system.id(), after, run.profile.pageSize(), pendingOnly));
      if (csos.isEmpty()) {
        run.commitPage((transaction, page) -> new Checkpoint(Phase.DELETIONS, 0));
        break;
      }
      if (!partitioned.sync(run, csos, work, refusedCso)) {
        run.commitEach(csos, work, refusedCso);
      }
    }
    Set<String> refused = new HashSet<>();
    while (run.checkpoint.phase() == Phase.DELETIONS) {
      Instant now = clock.instant();
      List<MvoRow> due =
          run.read(c -> metaverse.findDueForDeletion(c, now, run.profile.pageSize(), refused));
      if (due.isEmpty()) {
        run.commitPage((transaction, page) -> new Checkpoint(Phase.DONE, 0));
        break;
      }
      run.commitEach(
          due,
          some -> (transaction, page) -> deleteDueMvos(transaction, run, some, now, page),
          (mvo, reason) -> {
            refused.add(mvo.id());
            return (transaction, page) -> {
              page.error(
                  displayName(mvo),
                  null,
                  "DeletionRefused",
                  "the store refused to delete MVO "
                      + mvo.id()
                      + ": "
                      + reason
                      + "; it stays due and the next run tries it again");
              return new Checkpoint(Phase.DELETIONS, 0);
            };
          });
    }
  }

  /** The page that records a CSO whose synchronisation the store refused alone. */
  private static PageWork refusedSync(CsoRow cso, String reason) {
    return (transaction, page) -> {
      page.processed = 1;
      page.error(
          cso.anchor(),
          cso.id(),
          "StoreRefused",
          "the store refused the synchronisation of "
              + cso.anchor()
              + ": "
              + reason
              + "; the next synchronisation tries it again");
      return new Checkpoint(Phase.SYNC, cso.id());
    };
  }

  private Checkpoint syncPage(
      Transaction transaction, RunContext run, List<CsoRow> csos, RunContext.Page page) {
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
    return new Checkpoint(Phase.SYNC, csos.get(csos.size() - 1).id());
  }

  /**
   * Deletes those of these MVOs still due, deprovisioning them where rules say so. MVOs whose
   * deletion the store refuses are left out of the rest of the run ({@link RunContext#commitEach})
   * and stay due for the next one.
   */
  private Checkpoint deleteDueMvos(
      Transaction transaction,
      RunContext run,
      List<MvoRow> candidates,
      Instant now,
      RunContext.Page page) {
    List<MvoRow> due = transaction.get(c -> metaverse.stillDue(c, candidates, now));
    List<MvoChange> changes = new ArrayList<>();
    for (Deprovisioning.MvoDeletion deletion :
        transaction.get(c -> deprovisioning.delete(c, due, run.runId))) {
      MvoRow mvo = deletion.mvo();
      for (CsoRow target : deletion.deprovisioned()) {
        page.change(target.anchor(), target.id(), mvo.id(), ChangeType.Deprovisioned);
        page.delta.increment(Total.PENDING_EXPORTS);
      }
      page.change(displayName(mvo), null, mvo.id(), ChangeType.Deleted);
      changes.add(new MvoChange(mvo.id(), ChangeType.Deleted, null));
    }
    transaction.run(c -> history.recordMvoChanges(c, run.runId, changes));
    return new Checkpoint(Phase.DELETIONS, 0);
  }

  private static String displayName(MvoRow mvo) {
    return mvo.attributes().getOrDefault("displayName", mvo.id());
  }
}
