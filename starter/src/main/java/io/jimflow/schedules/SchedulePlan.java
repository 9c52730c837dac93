package io.jimflow.schedules;

import java.util.List;

/**
 * What {@code schedules apply} would change on the server to match the definitions file.
 *
 * @param conflicts ids the file uses that belong to schedules jimflow did not create; while there
 *     are any, nothing may be applied
 * @param unchanged ids already deployed as the file says
 */
public record SchedulePlan(List<Change> changes, List<String> conflicts, List<String> unchanged) {

  public SchedulePlan {
    changes = List.copyOf(changes);
    conflicts = List.copyOf(conflicts);
    unchanged = List.copyOf(unchanged);
  }

  public boolean hasChanges() {
    return !changes.isEmpty();
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
