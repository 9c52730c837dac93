package io.jimflow.dataplane.config;

/**
 * How many changes of one kind a run may make before it holds for a person's approval: more than
 * {@code count}, or more than {@code share} of the system's objects, holds it. The share counts
 * only above {@link #SHARE_FLOOR} changes, so that a small system is not held for every change.
 *
 * @param count the most changes that never hold (0: any change beyond the floor's share holds)
 * @param share the largest fraction (0 to 1) of the system's objects that never holds
 */
public record Threshold(long count, double share) {

  /** Changes up to this many never hold by their share alone. */
  public static final long SHARE_FLOOR = 10;

  public Threshold {
    if (count < 0 || !(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException(
          "count >= 0 and share in [0, 1], not " + count + ", " + share);
    }
  }

  /** Whether {@code changes} of a system holding {@code total} objects cross this threshold. */
  public boolean crossedBy(long changes, long total) {
    return changes > count || (changes > SHARE_FLOOR && changes > share * total);
  }

  /** The threshold as people read it, e.g. {@code 500 or 10%}. */
  public String describe() {
    return count + " or " + percent(share);
  }

  static String percent(double share) {
    double value = share * 100;
    return (value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value)) + "%";
  }
}
