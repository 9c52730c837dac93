package io.jimflow.workitem.kinds;

import io.jimflow.workitem.activities.WorkItemRunContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A run context that records saved progress and asks the handler to finish after a number of saves.
 */
final class FakeRunContext implements WorkItemRunContext {
  private final String state;
  private final int finishAfterSaves;
  final List<String> saved = new ArrayList<>();

  /** The guid of every fake item. */
  static final String GUID = "0b7e8f5c-2d1a-4c3e-9f00-5a6b7c8d9e0f";

  FakeRunContext(String state, int finishAfterSaves) {
    this.state = state;
    this.finishAfterSaves = finishAfterSaves;
  }

  @Override
  public String guid() {
    return GUID;
  }

  @Override
  public String kind() {
    return "test";
  }

  @Override
  public int instance() {
    return 1;
  }

  @Override
  public String state() {
    return state;
  }

  @Override
  public void saveProgress(String stateJson) {
    saved.add(stateJson);
  }

  @Override
  public void checkCurrent() {
    // a single attempt that always counts
  }

  @Override
  public boolean shouldFinish() {
    return saved.size() >= finishAfterSaves;
  }

  @Override
  public FinishReason finishReason() {
    return shouldFinish() ? FinishReason.SHUTDOWN : FinishReason.NONE;
  }
}
