package io.jimflow.dataplane;

/**
 * Where a run continues: a phase and a position in it (an object's position in the file, or the
 * last CSO id done). Stored with the page it follows, as {@code phase:position}.
 */
record Checkpoint(String phase, long position) {

  static final String ROWS = "rows";
  static final String ABSENT = "absent";
  static final String SYNC = "sync";
  static final String DELETIONS = "deletions";
  static final String EXPORTED = "exported";

  static Checkpoint parse(String text, String initialPhase) {
    if (text == null || text.isBlank()) {
      return new Checkpoint(initialPhase, 0);
    }
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      return new Checkpoint(text, 0);
    }
    return new Checkpoint(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
  }

  @Override
  public String toString() {
    return phase + ":" + position;
  }
}
