package io.jimflow.maintenance.activities;

import io.jimflow.maintenance.BatchPlan;
import io.jimflow.maintenance.HistoryKind;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.store.ChangeHistory;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.ConnectorSpace.Join;
import io.jimflow.store.ConnectorSpace.SystemObjectsDeleted;
import io.jimflow.store.CsoRow;
import io.jimflow.store.Deprovisioning;
import io.jimflow.store.Metaverse;
import io.jimflow.store.MvoRow;
import io.jimflow.store.OneAtATime;
import io.jimflow.store.RecordRetention;
import io.jimflow.store.Repositories;
import io.jimflow.store.SqlWork;
import io.jimflow.store.Store;
import io.jimflow.store.SystemCatalog;
import io.jimflow.sync.MvoState;
import io.jimflow.sync.SyncEngine;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Maintenance's work on the store: MVO housekeeping, history retention, clearing and deleting
 * connected systems, over the store's repositories. Every loop commits one short transaction per
 * batch and reports it to a {@link Progress} (the activity heartbeats there); all of it is
 * idempotent, so a retried attempt continues where the lost one committed.
 */
public final class StoreMaintenance {

  /** Rows handled per transaction by the connected-system tasks and per housekeeping page. */
  static final int PAGE = 500;

  private static final BatchPlan PAGES = new BatchPlan(PAGE);

  private final Store store;
  private final SyncEngine engine;
  private final Clock clock;
  private final Metaverse metaverse;
  private final ConnectorSpace connectorSpace;
  private final ChangeHistory history;
  private final RecordRetention retention = new RecordRetention();
  private final SystemCatalog catalog;
  private final Deprovisioning deprovisioning;

  /**
   * @param engine the configured sync rules (outbound and deletion rules are used)
   */
  public StoreMaintenance(Store store, SyncEngine engine, Clock clock) {
    this.store = store;
    this.engine = engine;
    this.clock = clock;
    Repositories repositories = Repositories.create(clock, Map.of());
    this.metaverse = repositories.metaverse();
    this.connectorSpace = repositories.connectorSpace();
    this.history = repositories.history();
    this.catalog = new SystemCatalog(clock);
    this.deprovisioning = new Deprovisioning(engine, repositories);
  }

  /** Called after each committed batch with the running count. */
  @FunctionalInterface
  public interface Progress {
    void committed(long soFar);

    Progress NONE = soFar -> {};
  }

  public Store store() {
    return store;
  }

  // ---- MVO housekeeping ---------------------------------------------------------------------

  /**
   * What one housekeeping pass deleted, and the MVOs whose deletion the store refused (by id, with
   * why): they stay due, and the next pass tries them again.
   */
  public record MvoDeletions(
      int mvosDeleted, int deprovisionExports, boolean capReached, Map<String, String> refused) {

    /** What the pass's record says: the refused MVOs (the first few, with why), the cap reached. */
    public String message(int cap) {
      List<String> parts = new ArrayList<>();
      if (!refused.isEmpty()) {
        StringBuilder text =
            new StringBuilder(
                refused.size() + " MVO deletions refused (they stay due for the next cycle): ");
        int shown = 0;
        for (Map.Entry<String, String> entry : refused.entrySet()) {
          if (shown++ == 5) {
            text.append("; …");
            break;
          }
          text.append(shown > 1 ? "; " : "").append(entry.getKey()).append(": ");
          text.append(entry.getValue());
        }
        parts.add(text.toString());
      }
      if (capReached) {
        parts.add("cap of " + cap + " MVOs per cycle reached; the next cycle goes on");
      }
      return parts.isEmpty() ? null : String.join(". ", parts);
    }
  }

  /**
   * Deletes up to {@code cap} MVOs whose grace period has passed at the store clock's now: delete
   * exports for their targets where outbound rules deprovision, then the MVO, with a Deleted entry
   * in its change history naming who initiated the deletion (else {@code fallback}). A page the
   * store refuses is deleted one MVO at a time; one MVO it refuses alone never holds back the
   * others (it counts towards the cap, so a pass always ends).
   *
   * @param runRecordId written to the change history entries
   */
  public MvoDeletions deleteDueMvos(
      int cap, String runRecordId, Initiator fallback, Progress progress) {
    Instant now = clock.instant();
    int[] deleted = {0, 0};
    Map<String, String> refused = new LinkedHashMap<>();
    while (deleted[0] + refused.size() < cap) {
      int page = Math.min(PAGE, cap - deleted[0] - refused.size());
      List<MvoRow> due =
          store.inTransaction(c -> metaverse.findDueForDeletion(c, now, page, refused.keySet()));
      if (due.isEmpty()) {
        return new MvoDeletions(deleted[0], deleted[1], false, refused);
      }
      OneAtATime.commit(
          due,
          some -> {
            int[] done =
                store.inTransaction(
                    c -> {
                      List<MvoRow> still = metaverse.stillDue(c, some, now);
                      Map<String, Initiator> initiators = metaverse.deletionInitiators(c, still);
                      List<Deprovisioning.MvoDeletion> deletions =
                          deprovisioning.delete(c, still, runRecordId);
                      history.recordMvoDeletions(c, runRecordId, still, initiators, fallback);
                      return new int[] {
                        still.size(),
                        deletions.stream().mapToInt(d -> d.deprovisioned().size()).sum()
                      };
                    });
            deleted[0] += done[0];
            deleted[1] += done[1];
            progress.committed(deleted[0]);
          },
          (mvo, failure) -> refused.put(mvo.id(), OneAtATime.reason(failure)));
    }
    return new MvoDeletions(deleted[0], deleted[1], anyMvoDue(now, refused.keySet()), refused);
  }

  /** Whether any MVO is due now; housekeeping writes no run record when none is. */
  public boolean anyMvoDue() {
    return anyMvoDue(clock.instant(), List.of());
  }

  private boolean anyMvoDue(Instant now, Collection<String> except) {
    return store.inTransaction(c -> !metaverse.findDueForDeletion(c, now, 1, except).isEmpty());
  }

  // ---- history retention --------------------------------------------------------------------

  /** What one kind's purge deleted. */
  public record Purged(long deleted, long itemsDeleted, long batches) {}

  /**
   * Deletes history of one kind written before the cutoff, {@code batchSize} rows per transaction.
   * The progress counts entries (change entries, or run records), not run items.
   */
  public Purged purge(HistoryKind kind, Instant cutoff, BatchPlan plan, Progress progress) {
    Batches batches = new Batches(plan);
    int size = plan.batchSize();
    return switch (kind) {
      case CsoChanges, MvoChanges -> {
        ChangeHistory.Subject subject =
            kind == HistoryKind.CsoChanges ? ChangeHistory.Subject.CSO : ChangeHistory.Subject.MVO;
        long deleted =
            batches.untilShort(c -> history.purgeBefore(c, subject, cutoff, size), progress);
        yield new Purged(deleted, 0, batches.count);
      }
      case RunRecords -> {
        long records = 0;
        long items = 0;
        while (true) {
          List<String> ids =
              store.inTransaction(c -> retention.runRecordsEndedBefore(c, cutoff, size));
          long soFar = records;
          for (String id : ids) {
            items +=
                batches.untilShort(
                    c -> retention.deleteRunItems(c, id, size), n -> progress.committed(soFar));
          }
          records += store.inTransaction(c -> retention.deleteRunRecords(c, ids));
          batches.count++;
          progress.committed(records);
          if (!plan.moreAfter(ids.size())) {
            break;
          }
        }
        long before = records;
        records +=
            batches.untilShort(
                c -> retention.purgeMaintenanceRunsBefore(c, cutoff, size),
                n -> progress.committed(before + n));
        // The execution history follows the run records' period: an execution and its steps go
        // together, once the execution ended before the cutoff.
        long beforeExecutions = records;
        records +=
            batches.untilShort(
                c -> retention.purgeExecutionRecordsBefore(c, cutoff, size),
                n -> progress.committed(beforeExecutions + n));
        yield new Purged(records, items, batches.count);
      }
    };
  }

  // ---- connected systems --------------------------------------------------------------------

  /** Whether the store knows the system (it ran at least once, or was saved to the catalog). */
  public boolean knowsSystem(String connectedSystem) {
    return store.inTransaction(c -> catalog.exists(c, connectedSystem));
  }

  /**
   * Deletes a system's CSOs with their pending exports, and, if asked, the change history of its
   * objects; page by page.
   *
   * @return csosDeleted, pendingExportsDeleted and (with history) csoChangesDeleted
   */
  public Map<String, Long> clearObjects(
      String connectedSystem, boolean deleteHistory, Progress progress) {
    long csos = 0;
    long exports = 0;
    while (true) {
      SystemObjectsDeleted page =
          store.inTransaction(c -> connectorSpace.deleteForSystem(c, connectedSystem, PAGE));
      csos += page.csos();
      exports += page.pendingExports();
      progress.committed(csos);
      if (!PAGES.moreAfter(page.csos())) {
        break;
      }
    }
    Map<String, Long> totals = new LinkedHashMap<>();
    totals.put("csosDeleted", csos);
    totals.put("pendingExportsDeleted", exports);
    if (deleteHistory) {
      long before = csos;
      totals.put(
          "csoChangesDeleted",
          new Batches(PAGES)
              .untilShort(
                  c -> history.purgeForSystem(c, connectedSystem, PAGE),
                  n -> progress.committed(before + n)));
    }
    return totals;
  }

  /**
   * Gives the MVOs joined to a system's objects their deletion date, as the deletion rules would
   * once those objects are gone: those no other authoritative system holds. Remembers who asked, so
   * the change history of their eventual deletion names them.
   *
   * @return mvosMarkedForDeletion
   */
  public Map<String, Long> markOrphanedMvos(
      String connectedSystem, Initiator initiator, Progress progress) {
    Instant now = clock.instant();
    String reason = "connected system '" + connectedSystem + "' deleted";
    long marked = 0;
    long afterId = 0;
    while (true) {
      long from = afterId;
      long[] page =
          store.inTransaction(
              c -> {
                List<Join> joins = connectorSpace.joinsAfter(c, connectedSystem, from, PAGE);
                if (joins.isEmpty()) {
                  return new long[] {0, from, 0};
                }
                Set<String> mvoIds = new HashSet<>();
                joins.forEach(join -> mvoIds.add(join.mvoId()));
                Map<String, Set<String>> remaining = new HashMap<>();
                for (CsoRow connector : connectorSpace.findByMvoIds(c, mvoIds)) {
                  if (!connector.connectedSystem().equals(connectedSystem)) {
                    remaining
                        .computeIfAbsent(connector.mvoId(), k -> new HashSet<>())
                        .add(connector.connectedSystem());
                  }
                }
                long count = 0;
                for (MvoRow mvo : metaverse.findByIds(c, mvoIds).values()) {
                  MvoState state =
                      new MvoState(
                          mvo.id(), mvo.objectType(), mvo.attributes(), mvo.deletionEligibleAt());
                  Instant eligible =
                      engine.deletionEligibleAt(
                          state, remaining.getOrDefault(mvo.id(), Set.of()), now);
                  if (eligible != null && !eligible.equals(mvo.deletionEligibleAt())) {
                    metaverse.markForDeletion(c, mvo.id(), eligible, initiator, reason);
                    count++;
                  }
                }
                return new long[] {joins.size(), joins.get(joins.size() - 1).csoId(), count};
              });
      marked += page[2];
      afterId = page[1];
      progress.committed(marked);
      if (!PAGES.moreAfter((int) page[0])) {
        return Map.of("mvosMarkedForDeletion", marked);
      }
    }
  }

  /**
   * Deletes a connected system: its objects and pending exports page by page, then its run profiles
   * and catalog entry. Its run records and change history stay for the audit trail (until history
   * retention takes them).
   *
   * @return csosDeleted and pendingExportsDeleted
   */
  public Map<String, Long> deleteSystem(String connectedSystem, Progress progress) {
    Map<String, Long> totals = new LinkedHashMap<>(clearObjects(connectedSystem, false, progress));
    store.inTransaction(
        c -> {
          catalog.delete(c, connectedSystem);
          return null;
        });
    return totals;
  }

  /** The deletion date of an MVO, if it has one (for tests and the CLI). */
  public Optional<Instant> deletionEligibleAt(String mvoId) {
    return store.inTransaction(
        c ->
            Optional.ofNullable(metaverse.findByIds(c, List.of(mvoId)).get(mvoId))
                .map(MvoRow::deletionEligibleAt));
  }

  /** Batch after batch, each in its own transaction, until one does less than a full batch. */
  private final class Batches {
    private final BatchPlan plan;
    private long count;

    Batches(BatchPlan plan) {
      this.plan = plan;
    }

    /** Runs the batches; returns what they did together, reporting the running total. */
    long untilShort(SqlWork<Integer> batch, Progress progress) {
      long total = 0;
      while (true) {
        int done = store.inTransaction(batch);
        total += done;
        count++;
        progress.committed(total);
        if (!plan.moreAfter(done)) {
          return total;
        }
      }
    }
  }
}
