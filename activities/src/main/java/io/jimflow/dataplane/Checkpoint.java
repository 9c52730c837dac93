package io.jimflow.dataplane;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where a run continues: a phase and a position in it (an object's position in the file, or the
 * last CSO or export id done) and, for a phase that works up to a bound fixed when it began (the
 * highest export id an export run writes), that bound. Stored with the page it follows (in the run
 * record and in the step's heartbeat), as {@code phase:position}, or {@code phase:bound:position}
 * when there is a bound, the phase by its {@linkplain Phase#stored stored name}.
 *
 * @param bound 0 for none
 */
record Checkpoint(Phase phase, long position, long bound) {

  /** The phases of the data plane's runs, each under the name stored checkpoints use. */
  enum Phase {
    /** An import reads its objects; the position is the last one's in the source. */
    ROWS("rows"),
    /** A full import deletes the objects the source no longer has; after the last CSO id done. */
    ABSENT("absent"),
    /** A synchronisation synchronises CSOs; after the last CSO id done. */
    SYNC("sync"),
    /** Metaverse objects due for deletion are deleted. */
    DELETIONS("deletions"),
    /** A synchronisation is done. */
    DONE("done"),
    /** An LDAP export run records its outcomes; after the last export id recorded. */
    EXPORTED("exported"),
    /**
     * An LDAP export run is sending a batch: its exports up to the bound may have reached the
     * directory; those up to the position are recorded.
     */
    SENDING("sending"),
    /** An export run's file is written; its exports up to the bound are being marked Exported. */
    MARK("mark");

    /** The name in a stored checkpoint: never change it, checkpoints of running steps hold it. */
    final String stored;

    Phase(String stored) {
      this.stored = stored;
    }

    /** The phase a stored checkpoint names. */
    static Phase parse(String stored) {
      return Arrays.stream(values())
          .filter(p -> p.stored.equals(stored))
          .findFirst()
          .orElseThrow(
              () -> new IllegalArgumentException("not a run checkpoint's phase: '" + stored + "'"));
    }
  }

  Checkpoint {
    Objects.requireNonNull(phase, "phase");
  }

  Checkpoint(Phase phase, long position) {
    this(phase, position, 0);
  }

  /**
   * The checkpoint stored as {@code text} ({@link #toString}'s form, as every earlier version wrote
   * it); {@code initial} at position 0 when none is stored.
   */
  static Checkpoint parse(String text, Phase initial) {
    if (text == null || text.isBlank()) {
      return new Checkpoint(initial, 0);
    }
    String[] parts = text.split(":", -1);
    try {
      return switch (parts.length) {
        case 1 -> new Checkpoint(Phase.parse(text), 0);
        case 2 -> new Checkpoint(Phase.parse(parts[0]), Long.parseLong(parts[1]));
        case 3 ->
            new Checkpoint(
                Phase.parse(parts[0]), Long.parseLong(parts[2]), Long.parseLong(parts[1]));
        default -> throw new IllegalArgumentException("too many parts");
      };
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "not a run checkpoint: '" + text + "' (" + e.getMessage() + ")", e);
    }
  }

  @Override
  public String toString() {
    String name = phase.stored;
    return bound == 0 ? name + ":" + position : name + ":" + bound + ":" + position;
  }
}
