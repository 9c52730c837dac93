package io.jimflow.schedule.deploy;

import java.util.List;

/**
 * What {@code schedules apply} would change on the server to match the definitions file.
 *
 * @param scope the scope (schedules file) whose schedules the plan creates, updates and deletes
 * @param conflicts ids the file uses that belong to schedules jimflow did not create or another
 *     scope owns; while there are any, nothing may be applied
 * @param unchanged ids already deployed as the file says
 */
public record SchedulePlan(
    String scope, List<Change> changes, List<Conflict> conflicts, List<String> unchanged) {

  public SchedulePlan {
    changes = List.copyOf(changes);
    conflicts = List.copyOf(conflicts);
    unchanged = List.copyOf(unchanged);
  }

  public boolean hasChanges() {
    return !changes.isEmpty();
  }

  /**
   * An id the file uses that it may not take.
   *
   * @param owner the scope that owns the schedule; null when jimflow did not create it
   */
  public record Conflict(String id, String owner) {

    /** What is wrong and how to resolve it, in one sentence. */
    public String describe() {
      if (owner == null) {
        return id
            + " exists but was not created by jimflow; rename it in the file or delete that"
            + " schedule";
      }
      return id
          + " belongs to scope '"
          + owner
          + "'; to move it, remove it from the file of scope '"
          + owner
          + "' and apply that file (or ./jimflow schedules delete "
          + id
          + "), then apply this one";
    }
  }

  /** One change to one schedule. */
  public record Change(Kind kind, String id, List<String> aspects, DesiredSchedule desired) {
    public Change {
      aspects = List.copyOf(aspects);
    }

    /** E.g. {@code update nightly-hr-sync (spec, paused: false -> true)}. */
    public String describe() {
      String verb = kind.name().toLowerCase(java.util.Locale.ROOT);
      return aspects.isEmpty()
          ? verb + " " + id
          : verb + " " + id + " (" + String.join(", ", aspects) + ")";
    }
  }

  /** The kinds of change, in the order apply performs them. */
  public enum Kind {
    CREATE,
    UPDATE,
    DELETE
  }
}
