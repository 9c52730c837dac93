package io.jimflow.metrics;

import io.jimflow.schedule.DeployedDefinitions;
import io.jimflow.schedule.ScheduleDefinition;
import io.temporal.client.schedules.ScheduleActionResult;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleInfo;
import io.temporal.client.schedules.ScheduleListDescription;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads every schedule of the namespace from Temporal, as {@link ScheduleState}s. */
public final class ScheduleWatch {

  /** Bounds one reading: a namespace with more schedules reports the first ones. */
  static final int MAXIMUM_SCHEDULES = 2000;

  private final ScheduleClient schedules;

  public ScheduleWatch(ScheduleClient schedules) {
    this.schedules = schedules;
  }

  /** Every schedule's state now (a server failure propagates). */
  public List<ScheduleState> read() {
    List<ScheduleState> states = new ArrayList<>();
    for (ScheduleListDescription listed :
        schedules.listSchedules().limit(MAXIMUM_SCHEDULES).toList()) {
      ScheduleDescription d = schedules.getHandle(listed.getScheduleId()).describe();
      ScheduleInfo info = d.getInfo();
      List<ScheduleActionResult> recent = info.getRecentActions();
      Optional<ScheduleDefinition> definition = DeployedDefinitions.of(d);
      states.add(
          new ScheduleState(
              d.getId(),
              d.getSchedule().getState().isPaused(),
              info.getCreatedAt(),
              info.getNextActionTimes().isEmpty() ? null : info.getNextActionTimes().get(0),
              recent.isEmpty() ? null : recent.get(recent.size() - 1).getScheduledAt(),
              ScheduleState.longestGap(info.getNextActionTimes()),
              info.getNumActionsSkippedOverlap(),
              info.getNumActionsMissedCatchupWindow(),
              definition.map(ScheduleDefinition::name).orElse(d.getId()),
              definition.map(ScheduleDefinition::notificationUrl).orElse(null),
              definition.isPresent()));
    }
    return states;
  }
}
