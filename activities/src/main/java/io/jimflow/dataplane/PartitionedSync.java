package io.jimflow.dataplane;

import io.jimflow.dataplane.Checkpoint.Phase;
import io.jimflow.dataplane.RunContext.Page;
import io.jimflow.dataplane.RunContext.PageWork;
import io.jimflow.store.ConnectorSpace;
import io.jimflow.store.CsoRow;
import io.jimflow.store.StoreException;
import io.jimflow.store.SyncPlans;
import io.jimflow.sync.MvoState;
import io.jimflow.sync.SyncEngine;
import io.jimflow.sync.SyncPartitions;
import io.jimflow.sync.SyncPartitions.PageCso;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A synchronisation page written on several store connections at once: split into partitions that
 * never touch the same metaverse identity ({@link SyncPartitions}), each committed on a connection
 * of its own with the same per-object error handling as a whole page ({@link
 * RunContext#commitPartition}).
 *
 * <p>The page's plan (which CSOs each partition holds) is written in the transaction that moves the
 * run's checkpoint past the page; each partition deletes its own plan rows in the transaction that
 * writes its objects and adds its run items, totals and objects processed to the run's as
 * increments. The next page begins only when every partition is done, so after a crash the plan
 * rows that remain are exactly the work left: the next attempt redoes those partitions first.
 */
final class PartitionedSync {

  /** The most store connections one synchronisation uses, whatever the configuration says. */
  static final int MAX_CONNECTIONS = 8;

  private final ConnectorSpace connectorSpace;
  private final InboundSync inbound;
  private final SyncPartitions partitions;
  private final SyncPlans plans = new SyncPlans();
  private final int connections;

  /**
   * @param connections the store connections a page may use, from the worker's configuration;
   *     bounded to 1 to {@link #MAX_CONNECTIONS}
   */
  PartitionedSync(
      ConnectorSpace connectorSpace, InboundSync inbound, SyncEngine engine, int connections) {
    this.connectorSpace = connectorSpace;
    this.inbound = inbound;
    this.partitions = new SyncPartitions(engine);
    this.connections = bounded(connections);
  }

  /** The connections a page uses for a configured count: at least 1, at most 8. */
  static int bounded(int configured) {
    return Math.max(1, Math.min(MAX_CONNECTIONS, configured));
  }

  int connections() {
    return connections;
  }

  /**
   * Finishes the page an earlier attempt announced and did not finish: its partitions whose plan
   * rows remain, each as it was planned.
   */
  void finishAnnounced(
      RunContext run,
      Function<List<CsoRow>, PageWork> work,
      BiFunction<CsoRow, String, PageWork> refused) {
    List<List<Long>> left = run.read(c -> plans.remaining(c, run.runId));
    if (left.isEmpty()) {
      return;
    }
    List<List<CsoRow>> parts = new ArrayList<>();
    List<Long> gone = new ArrayList<>();
    for (List<Long> ids : left) {
      List<CsoRow> rows = run.read(c -> connectorSpace.findByIds(c, ids));
      Set<Long> found = new HashSet<>();
      rows.forEach(r -> found.add(r.id()));
      ids.stream().filter(id -> !found.contains(id)).forEach(gone::add);
      if (!rows.isEmpty()) {
        parts.add(rows);
      }
    }
    // A planned CSO deleted since (by an import) has nothing left to synchronise.
    run.read(
        c -> {
          plans.done(c, run.runId, gone);
          return null;
        });
    write(run, parts, work, refused);
  }

  /**
   * Synchronises a page on several connections, when the configuration allows more than one and the
   * page splits into more than one partition.
   *
   * @return false when it did nothing: the caller writes the page on one connection
   */
  boolean sync(
      RunContext run,
      List<CsoRow> csos,
      Function<List<CsoRow>, PageWork> work,
      BiFunction<CsoRow, String, PageWork> refused) {
    if (connections == 1 || csos.size() < 2) {
      return false;
    }
    List<List<Long>> planned = plan(run, csos);
    if (planned.size() < 2) {
      return false;
    }
    long last = csos.get(csos.size() - 1).id();
    run.commitPage(
        (transaction, page) -> {
          transaction.run(c -> plans.announce(c, run.runId, planned));
          return new Checkpoint(Phase.SYNC, last);
        });
    Map<Long, CsoRow> byId = new HashMap<>();
    csos.forEach(cso -> byId.put(cso.id(), cso));
    List<List<CsoRow>> parts = new ArrayList<>();
    for (List<Long> ids : planned) {
      parts.add(ids.stream().map(byId::get).toList());
    }
    write(run, parts, work, refused);
    return true;
  }

  /** The page's partitions, from the MVOs its CSOs are joined to or may join as stored now. */
  private List<List<Long>> plan(RunContext run, List<CsoRow> csos) {
    return run.readIn(
        transaction -> {
          SyncPageState state = inbound.loadState(transaction, csos);
          List<PageCso> page = new ArrayList<>(csos.size());
          csos.forEach(cso -> page.add(new PageCso(cso.id(), state.facts(cso), cso.mvoId())));
          List<MvoState> mvos =
              state.mvoIds().stream().map(id -> SyncPageState.toState(state.mvo(id))).toList();
          return partitions.partition(page, mvos, connections);
        });
  }

  /**
   * Writes the partitions, each on a thread and store connection of its own, waits for all of them,
   * and counts what they committed; the first failure is thrown once every partition has ended, so
   * no partition of this attempt writes after it.
   */
  private void write(
      RunContext run,
      List<List<CsoRow>> parts,
      Function<List<CsoRow>, PageWork> work,
      BiFunction<CsoRow, String, PageWork> refused) {
    Function<List<CsoRow>, PageWork> planned =
        some ->
            (transaction, page) -> {
              Checkpoint ignored = work.apply(some).apply(transaction, page);
              transaction.run(
                  c -> plans.done(c, run.runId, some.stream().map(CsoRow::id).toList()));
              return ignored;
            };
    BiFunction<CsoRow, String, PageWork> plannedRefusal =
        (cso, reason) ->
            (transaction, page) -> {
              Checkpoint ignored = refused.apply(cso, reason).apply(transaction, page);
              transaction.run(c -> plans.done(c, run.runId, List.of(cso.id())));
              return ignored;
            };
    List<Page> committed = new ArrayList<>();
    RuntimeException failure = null;
    ExecutorService threads =
        Executors.newFixedThreadPool(
            parts.size(),
            task -> {
              Thread thread = new Thread(task, "jimflow-sync-" + run.runId);
              thread.setDaemon(true);
              return thread;
            });
    try {
      List<Future<List<Page>>> futures = new ArrayList<>();
      for (List<CsoRow> part : parts) {
        futures.add(threads.submit(() -> run.commitPartition(part, planned, plannedRefusal)));
      }
      for (Future<List<Page>> future : futures) {
        try {
          committed.addAll(future.get());
        } catch (ExecutionException e) {
          failure = first(failure, e.getCause());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      threads.shutdownNow();
      failure = new StoreException("the synchronisation was interrupted", e);
    } finally {
      threads.shutdown();
    }
    run.counted(committed, run.checkpoint);
    if (failure != null) {
      throw failure;
    }
  }

  private static RuntimeException first(RuntimeException earlier, Throwable cause) {
    if (earlier != null) {
      earlier.addSuppressed(cause);
      return earlier;
    }
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new StoreException("a synchronisation partition failed: " + cause, cause);
  }
}
