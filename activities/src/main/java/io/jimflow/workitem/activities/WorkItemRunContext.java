package io.jimflow.workitem.activities;

import java.util.concurrent.Callable;

/**
 * What a running handler sees: its item, a way to save progress, the should-finish request, and the
 * fence its writes pass through.
 */
public interface WorkItemRunContext {

  String guid();

  String kind();

  /** 1 for the first instance, higher after restarts (which continue from the saved state). */
  int instance();

  /** The item's state (JSON) as saved by the previous instance, or as scheduled. */
  String state();

  /**
   * Saves progress: the state a restarted instance continues from if this one is interrupted or
   * lost. Also a heartbeat; throws {@link WorkItemFencedException} once the attempt was abandoned
   * (the handler must then stop; nothing it does afterwards counts).
   */
  void saveProgress(String stateJson);

  /**
   * Returns when this attempt still counts; throws {@link WorkItemFencedException} once it does not
   * (the item was Killed, the server gave the attempt up): the handler must then stop, and nothing
   * it writes afterwards may count. Asks the work manager each time; a handler calls it (or {@link
   * #write}) before every write to a store of its own.
   */
  void checkCurrent();

  /**
   * Runs {@code write} only while this attempt still counts ({@link #checkCurrent()} first), so a
   * killed handler that loops on writes is refused and writes nothing more.
   */
  default <T> T write(Callable<T> write) throws Exception {
    checkCurrent();
    return write.call();
  }

  /**
   * True once the item received WorkItemShouldFinish: its max run time passed, a user cancelled it,
   * or its worker is shutting down. The handler should save progress and return.
   */
  boolean shouldFinish();

  /**
   * Why {@link #shouldFinish()} is true; {@link FinishReason#NONE} while it is not. It changes once
   * more only to {@link FinishReason#CANCELLED}: a cancel reaches an item already ending for a
   * shutdown or its max run time, and the item then ends Cancelled, without a successor.
   */
  FinishReason finishReason();

  /** Why an item is asked to finish early. */
  enum FinishReason {
    NONE,
    /** Max run time reached (CancellingBySystem): end now, optionally plan a successor. */
    MAX_RUN_TIME,
    /** Cancelled by a user or program (CancellingByUser): end now. */
    CANCELLED,
    /**
     * The worker is shutting down (ShutdownRequest): end now; the item restarts from saved
     * progress.
     */
    SHUTDOWN,
    /** The attempt was given up by the work manager; nothing the handler does counts any more. */
    ABANDONED
  }
}
