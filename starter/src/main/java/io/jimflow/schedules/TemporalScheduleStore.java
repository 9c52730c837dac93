package io.jimflow.schedules;

import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleListDescription;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.ScheduleUpdate;
import io.temporal.common.converter.EncodedValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The schedules of a Temporal namespace. */
public final class TemporalScheduleStore implements ScheduleStore {

  private final ScheduleClient schedules;

  public TemporalScheduleStore(ScheduleClient schedules) {
    this.schedules = schedules;
  }

  @Override
  public List<DeployedSchedule> deployed() {
    List<DeployedSchedule> deployed = new ArrayList<>();
    for (ScheduleListDescription listed : schedules.listSchedules().toList()) {
      if (!isManaged(listed)) {
        deployed.add(
            new DeployedSchedule(listed.getScheduleId(), false, null, listed.getSchedule().getState().isPaused()));
        continue;
      }
      // The list view omits the action's memo (where the fingerprint lives), so describe each one.
      ScheduleDescription described = schedules.getHandle(listed.getScheduleId()).describe();
      deployed.add(
          new DeployedSchedule(
              listed.getScheduleId(),
              true,
              fingerprintOf(described),
              described.getSchedule().getState().isPaused()));
    }
    return deployed;
  }

  @Override
  public void create(DesiredSchedule schedule) {
    schedules.createSchedule(
        schedule.id(),
        schedule.schedule(),
        ScheduleOptions.newBuilder().setMemo(Map.of(ScheduleMapper.MANAGED_MEMO, true)).build());
  }

  @Override
  public void update(DesiredSchedule schedule) {
    schedules.getHandle(schedule.id()).update(input -> new ScheduleUpdate(schedule.schedule()));
  }

  @Override
  public void delete(String id) {
    schedules.getHandle(id).delete();
  }

  static boolean isManaged(ScheduleListDescription listed) {
    Object managed = listed.getMemo(ScheduleMapper.MANAGED_MEMO, Boolean.class);
    return Boolean.TRUE.equals(managed);
  }

  static Fingerprint fingerprintOf(ScheduleDescription described) {
    if (!(described.getSchedule().getAction() instanceof ScheduleActionStartWorkflow action)) {
      return null;
    }
    Map<String, Object> memo = action.getOptions().getMemo();
    Object value = memo == null ? null : memo.get(ScheduleMapper.FINGERPRINT_MEMO);
    // A described action carries its memo still encoded.
    if (value instanceof EncodedValues encoded) {
      value = encoded.get(0, Map.class);
    }
    return value instanceof Map<?, ?> fingerprint ? Fingerprint.fromMemo(fingerprint) : null;
  }
}
