package io.jimflow.dataplane;

/**
 * Where a run continues: a phase and a position in it (an object's position in the file, or the
 * last CSO or export id done) and, for a phase that works up to a bound fixed when it began (the
 * highest export id an export run writes), that bound. Stored with the page it follows, as {@code
 * phase:position}, or {@code phase:bound:position} when there is a bound.
 *
 * @param bound 0 for none
 */
record Checkpoint(String phase, long position, long bound) {

  static final String ROWS = "rows";
  static final String ABSENT = "absent";
  static final String SYNC = "sync";
  static final String DELETIONS = "deletions";
  static final String EXPORTED = "exported";

  /**
   * An LDAP export run is sending a batch: its exports up to the bound may have reached the
   * directory; those up to the position are recorded.
   */
  static final String SENDING = "sending";

  /** An export run's file is written; its exports up to the bound are being marked Exported. */
  static final String MARK = "mark";

  Checkpoint(String phase, long position) {
    this(phase, position, 0);
  }

  static Checkpoint parse(String text, String initialPhase) {
    if (text == null || text.isBlank()) {
      return new Checkpoint(initialPhase, 0);
    }
    String[] parts = text.split(":", -1);
    return switch (parts.length) {
      case 1 -> new Checkpoint(text, 0);
      case 2 -> new Checkpoint(parts[0], Long.parseLong(parts[1]));
      case 3 -> new Checkpoint(parts[0], Long.parseLong(parts[2]), Long.parseLong(parts[1]));
      default -> throw new IllegalArgumentException("not a run checkpoint: " + text);
    };
  }

  @Override
  public String toString() {
    return bound == 0 ? phase + ":" + position : phase + ":" + bound + ":" + position;
  }
}
