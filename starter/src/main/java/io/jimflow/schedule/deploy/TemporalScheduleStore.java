package io.jimflow.schedule.deploy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.ScheduleException;
import io.temporal.client.schedules.ScheduleOptions;
import io.temporal.client.schedules.ScheduleUpdate;
import io.temporal.common.converter.EncodedValues;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The schedules of a Temporal namespace. */
public final class TemporalScheduleStore implements ScheduleStore {

  private final ScheduleClient schedules;

  public TemporalScheduleStore(ScheduleClient schedules) {
    this.schedules = schedules;
  }

  @Override
  public List<DeployedSchedule> deployed(Collection<String> ids) {
    Set<String> candidates = new TreeSet<>(ids);
    schedules.listSchedules().forEach(listed -> candidates.add(listed.getScheduleId()));
    List<DeployedSchedule> deployed = new ArrayList<>();
    for (String id : candidates) {
      // Describe is read from the schedule itself, so it is current where the listing may lag;
      // it also carries the action's memo, which holds the fingerprint.
      describe(id)
          .ifPresent(
              d ->
                  deployed.add(
                      new DeployedSchedule(
                          id,
                          isManaged(d),
                          fingerprintOf(d),
                          d.getSchedule().getState().isPaused(),
                          scopeOf(d))));
    }
    return deployed;
  }

  @Override
  public void create(DesiredSchedule schedule) {
    schedules.createSchedule(
        schedule.id(),
        schedule.schedule(),
        ScheduleOptions.newBuilder().setMemo(memo(schedule)).build());
  }

  @Override
  public void update(DesiredSchedule schedule) {
    schedules.getHandle(schedule.id()).update(input -> new ScheduleUpdate(schedule.schedule()));
  }

  @Override
  public void delete(String id) {
    schedules.getHandle(id).delete();
  }

  @Override
  public void awaitListing(
      Collection<String> present, Collection<String> absent, java.time.Duration timeout) {
    if (present.isEmpty() && absent.isEmpty()) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Set<String> listed = new TreeSet<>();
      schedules.listSchedules().forEach(s -> listed.add(s.getScheduleId()));
      boolean caughtUp = listed.containsAll(present) && absent.stream().noneMatch(listed::contains);
      if (caughtUp || System.nanoTime() > deadline) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static Map<String, Object> memo(DesiredSchedule schedule) {
    Map<String, Object> memo = new java.util.LinkedHashMap<>();
    memo.put(ScheduleMapper.MANAGED_MEMO, true);
    if (schedule.scope() != null) {
      memo.put(ScheduleMapper.SCOPE_MEMO, schedule.scope());
    }
    return memo;
  }

  /** The scope that owns a described schedule, from its action's memo; null when none is set. */
  public static String scopeOf(ScheduleDescription described) {
    if (!(described.getSchedule().getAction() instanceof ScheduleActionStartWorkflow action)) {
      return null;
    }
    Map<String, Object> memo = action.getOptions().getMemo();
    Object value = memo == null ? null : memo.get(ScheduleMapper.SCOPE_MEMO);
    if (value instanceof EncodedValues encoded) {
      value = encoded.get(0, String.class);
    }
    return value instanceof String scope ? scope : null;
  }

  static boolean isManaged(ScheduleDescription described) {
    try {
      return Boolean.TRUE.equals(described.getMemo(ScheduleMapper.MANAGED_MEMO, Boolean.class));
    } catch (RuntimeException unreadable) {
      return false;
    }
  }

  private Optional<ScheduleDescription> describe(String id) {
    try {
      return Optional.of(schedules.getHandle(id).describe());
    } catch (ScheduleException e) {
      if (e.getCause() instanceof StatusRuntimeException s
          && s.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
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
