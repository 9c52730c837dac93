package io.jimflow.schedules;

import java.util.List;

/**
 * The definitions file uses the id of a schedule that jimflow did not create and will not touch.
 */
public class ScheduleConflictException extends RuntimeException {

  private final List<String> ids;

  public ScheduleConflictException(List<String> ids) {
    super(
        "schedule id(s) "
            + String.join(", ", ids)
            + " already exist on the server but were not created by jimflow; rename them in the"
            + " file or remove the existing schedules. Nothing was changed.");
    this.ids = List.copyOf(ids);
  }

  public List<String> ids() {
    return ids;
  }
}
