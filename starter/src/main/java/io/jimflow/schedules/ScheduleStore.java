package io.jimflow.schedules;

import java.util.List;

/**
 * Where schedules are deployed: Temporal in production ({@link TemporalScheduleStore}); an in-memory
 * map in tests, because the Java test server has no Schedules API.
 */
public interface ScheduleStore {

  /** Every schedule of the namespace, managed or not. */
  List<DeployedSchedule> deployed();

  void create(DesiredSchedule schedule);

  /** Replaces spec, action, policies and paused state of an existing schedule. */
  void update(DesiredSchedule schedule);

  void delete(String id);
}
