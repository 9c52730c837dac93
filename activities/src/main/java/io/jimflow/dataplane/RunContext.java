package io.jimflow.dataplane;

import io.jimflow.dataplane.config.ConnectedSystemConfig;
import io.jimflow.dataplane.config.RunProfileConfig;
import io.jimflow.schedule.steps.StepProgress;
import io.jimflow.store.ChangeType;
import io.jimflow.store.OneAtATime;
import io.jimflow.store.RunItem;
import io.jimflow.store.RunRecord;
import io.jimflow.store.RunRecords;
import io.jimflow.store.RunTotals;
import io.jimflow.store.SqlWork;
import io.jimflow.store.Store;
import io.jimflow.store.Total;
import io.jimflow.store.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One run's committed state (totals, objects processed, run items written, checkpoint) and the page
 * being worked on. A page becomes part of the committed state only when its transaction commits.
 */
final class RunContext {

  final String runId;
  final ConnectedSystemConfig system;
  final RunProfileConfig profile;
  private final Store store;
  private final RunRecords runRecords;
  private final StepProgress progress;
  private final int attempt;
  RunTotals totals;
  long processed;
  long itemsWritten;
  Checkpoint checkpoint;
  long total = -1;

  /** Whether a person approved this run going past its system's thresholds. */
  boolean thresholdsApproved;

  /**
   * @param record the run record as this attempt opened it: its attempt, and the totals, objects
   *     processed and items written that earlier attempts committed
   * @param checkpoint where this attempt starts
   */
  RunContext(
      RunRecord record,
      ConnectedSystemConfig system,
      RunProfileConfig profile,
      Store store,
      RunRecords runRecords,
      StepProgress progress,
      Checkpoint checkpoint) {
    this.runId = record.id();
    this.system = system;
    this.profile = profile;
    this.store = store;
    this.runRecords = runRecords;
    this.progress = progress;
    this.attempt = record.attempts();
    this.totals = record.totals();
    this.processed = record.objectsProcessed();
    this.itemsWritten = record.itemsWritten();
    this.checkpoint = checkpoint;
  }

  /** The work of one page: its run items and totals, committed together with its checkpoint. */
  final class Page {
    final List<RunItem> items = new ArrayList<>();
    final RunTotals delta = new RunTotals();
    long processed;

    void item(RunItem item) {
      items.add(item);
      if (item.isError()) {
        delta.increment(Total.ERRORS);
      } else if (item.changeType().total() != null) {
        delta.increment(item.changeType().total());
      }
    }

    void change(String objectRef, Long csoId, String mvoId, ChangeType type) {
      item(RunItem.change(objectRef, csoId, mvoId, type));
    }

    void error(String objectRef, Long csoId, String errorType, String message) {
      item(RunItem.error(objectRef, csoId, ChangeType.NoChange, errorType, message));
    }

    /**
     * Adds the page's items and progress to the run's as increments, in the page's transaction: for
     * a partition of a page, committed on a connection of its own beside the others.
     */
    void add(Transaction transaction) {
      transaction.run(
          c -> {
            long first = runRecords.addProgress(c, runId, attempt, delta, processed, items.size());
            runRecords.addItems(c, runId, first, items);
          });
    }

    /**
     * Writes the page's items and the run's progress with {@code next}, in the page's transaction.
     */
    void save(Transaction transaction, Checkpoint next) {
      RunTotals after = totals.copy();
      for (Total t : Total.values()) {
        after.add(t, delta.get(t));
      }
      transaction.run(
          c -> {
            runRecords.addItems(c, runId, itemsWritten, items);
            runRecords.saveProgress(
                c,
                runId,
                attempt,
                after,
                RunContext.this.processed + processed,
                itemsWritten + items.size(),
                next.toString());
          });
    }
  }

  /**
   * Heartbeats the committed progress during long work that commits nothing (an export writing its
   * file), so that a cancel or a lost worker is noticed there too.
   */
  void heartbeat() {
    progress.report(processed, total, null);
  }

  /** Reads from the store in a transaction of its own, outside any page. */
  <T> T read(SqlWork<T> work) {
    return store.inTransaction(work);
  }

  interface PageWork {
    Checkpoint apply(Transaction transaction, Page page);
  }

  /**
   * Runs one page in one transaction, then counts it as done and heartbeats its checkpoint; a
   * retried attempt resumes after the last page committed here.
   */
  void commitPage(PageWork work) {
    Page page = new Page();
    Checkpoint next =
        store.transact(
            transaction -> {
              Checkpoint after = work.apply(transaction, page);
              page.save(transaction, after);
              return after;
            });
    counted(List.of(page), next);
  }

  /**
   * Counts committed pages in the run's progress, heartbeats {@code next} (the checkpoint stored
   * with them or before them) and stops the run when its errors reached the profile's limit.
   */
  void counted(List<Page> pages, Checkpoint next) {
    for (Page page : pages) {
      for (Total t : Total.values()) {
        totals.add(t, page.delta.get(t));
      }
      processed += page.processed;
      itemsWritten += page.items.size();
    }
    checkpoint = next;
    progress.report(processed, total, runId + "/" + next);
    long errors = totals.get(Total.ERRORS);
    if (errors >= profile.stopAfterErrors()) {
      throw new TooManyErrors(errors, profile.stopAfterErrors());
    }
  }

  /**
   * Commits the work on these objects as one page; when the store refuses what that page wrote,
   * commits them one object a page, and each object it refuses alone as an error item of its own
   * ({@link OneAtATime}), so one object the store cannot take never holds back the others.
   *
   * @param work the page's work on some of the objects (all, or one)
   * @param refused the page that records one refused object, given why the store refused it
   */
  <T> void commitEach(
      List<T> objects, Function<List<T>, PageWork> work, BiFunction<T, String, PageWork> refused) {
    OneAtATime.commit(
        objects,
        some -> commitPage(work.apply(some)),
        (object, failure) -> commitPage(refused.apply(object, OneAtATime.reason(failure))));
  }

  /**
   * Commits work on the objects of one partition of a page as {@link #commitEach} does, each
   * commit's items and progress added to the run's as increments ({@link Page#add}), without
   * counting them in this context: the caller does, with {@link #counted}, once every partition of
   * the page is done. Safe to call on several threads at once, each on a store connection of its
   * own.
   *
   * @return the pages committed
   */
  <T> List<Page> commitPartition(
      List<T> objects, Function<List<T>, PageWork> work, BiFunction<T, String, PageWork> refused) {
    List<Page> pages = new ArrayList<>();
    OneAtATime.commit(
        objects,
        some -> pages.add(commitPart(work.apply(some))),
        (object, failure) ->
            pages.add(commitPart(refused.apply(object, OneAtATime.reason(failure)))));
    return pages;
  }

  private Page commitPart(PageWork work) {
    Page page = new Page();
    store.transact(
        transaction -> {
          work.apply(transaction, page);
          page.add(transaction);
          return null;
        });
    return page;
  }

  /** Reads from the store in a transaction of its own, for the repositories that take one. */
  <T> T readIn(Transaction.Work<T> work) {
    return store.transact(work);
  }

  /** A run reached its profile's stopAfterErrors: it stops FailedWithError. */
  static final class TooManyErrors extends RuntimeException {
    TooManyErrors(long errors, int limit) {
      super(
          "stopped after "
              + errors
              + " errors (the run profile's stopAfterErrors is "
              + limit
              + "); the source or target looks broken as a whole");
    }
  }
}
