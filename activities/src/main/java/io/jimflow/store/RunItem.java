package io.jimflow.store;

/**
 * One object a run touched (JIM's run profile execution item).
 *
 * @param objectRef what a person recognises the object by: its anchor, or the file line of a bad
 *     row
 * @param errorType null when the item succeeded
 */
public record RunItem(
    String objectRef,
    Long csoId,
    String mvoId,
    ChangeType changeType,
    String errorType,
    String errorMessage) {

  public static RunItem change(String objectRef, Long csoId, String mvoId, ChangeType changeType) {
    return new RunItem(objectRef, csoId, mvoId, changeType, null, null);
  }

  public static RunItem error(
      String objectRef, Long csoId, ChangeType changeType, String errorType, String message) {
    return new RunItem(objectRef, csoId, null, changeType, errorType, message);
  }

  public boolean isError() {
    return errorType != null;
  }
}
