package io.jimflow.workitem.kinds;

import io.jimflow.workitem.WorkItemRunContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A run context that records saved progress and asks the handler to finish after a number of saves.
 */
final class FakeRunContext implements WorkItemRunContext {
  private final String state;
  private final int finishAfterSaves;
  final List<String> saved = new ArrayList<>();

  FakeRunContext(String state, int finishAfterSaves) {
    this.state = state;
    this.finishAfterSaves = finishAfterSaves;
  }

  @Override
  public String guid() {
    return "g";
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
