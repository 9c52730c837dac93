package io.jimflow.schedule.deploy;

import io.jimflow.schedule.ScheduleDefinition;
import io.temporal.client.schedules.Schedule;

/**
 * A schedule as the definitions file wants it deployed.
 *
 * @param schedule the Temporal schedule to create or replace
 * @param fingerprint stored with it, for the next plan
 */
public record DesiredSchedule(
    ScheduleDefinition definition, Schedule schedule, Fingerprint fingerprint, String scope) {

  /** A schedule outside any scope (the built-ins). */
  public DesiredSchedule(
      ScheduleDefinition definition, Schedule schedule, Fingerprint fingerprint) {
    this(definition, schedule, fingerprint, null);
  }

  public String id() {
    return definition.id();
  }

  public boolean paused() {
    return !definition.enabled();
  }
}
