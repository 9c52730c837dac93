package io.jimflow.schedule.deploy;

import java.util.List;

/**
 * Where schedules are deployed: Temporal in production ({@link TemporalScheduleStore}); an
 * in-memory map in tests, because the Java test server has no Schedules API.
 */
public interface ScheduleStore {

  /**
   * Every schedule of the namespace, managed or not.
   *
   * @param ids schedules to look up directly as well: listings may lag a moment behind a create,
   *     and a plan must not offer to create a schedule that already exists
   */
  List<DeployedSchedule> deployed(java.util.Collection<String> ids);

  void create(DesiredSchedule schedule);

  /** Replaces spec, action, policies and paused state of an existing schedule. */
  void update(DesiredSchedule schedule);

  void delete(String id);

  /**
   * Waits, at most {@code timeout}, until a listing of the namespace shows {@code present} and no
   * longer shows {@code absent} (listings lag behind writes), so a list right after an apply shows
   * what it did.
   */
  default void awaitListing(
      java.util.Collection<String> present,
      java.util.Collection<String> absent,
      java.time.Duration timeout) {}
}
