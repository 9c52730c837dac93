package io.jimflow.workitem;

/** What a running handler sees: its item, a way to save progress, and the should-finish request. */
public interface WorkItemRunContext {

  String guid();

  String kind();

  /** 1 for the first instance, higher after restarts (which continue from the saved state). */
  int instance();

  /** The item's state (JSON) as saved by the previous instance, or as scheduled. */
  String state();

  /**
   * Saves progress: the state a restarted instance continues from if this one is interrupted or
   * lost. Also a heartbeat; throws {@link io.temporal.client.ActivityCompletionException} when the
   * attempt was abandoned (the handler must then stop; nothing it does afterwards counts).
   */
  void saveProgress(String stateJson);

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
