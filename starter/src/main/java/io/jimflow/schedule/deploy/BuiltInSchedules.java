package io.jimflow.schedule.deploy;

import io.jimflow.common.TaskQueues;
import io.jimflow.maintenance.HistoryRetentionInput;
import io.jimflow.maintenance.HistoryRetentionWorkflow;
import io.jimflow.maintenance.HousekeepingInput;
import io.jimflow.maintenance.HousekeepingWorkflow;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleDefinition.OverlapPolicy;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.Trigger;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.ScheduleDescription;
import io.temporal.client.schedules.SchedulePolicy;
import io.temporal.client.schedules.ScheduleState;
import io.temporal.common.converter.EncodedValues;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * jimflow's built-in schedules (JIM's "BuiltIn" schedules): housekeeping every minute and history
 * retention daily at 02:30 UTC. {@code schedules apply} deploys them whether or not the file names
 * them. A file may re-time, pause or resume one with an entry of its reserved id that sets only
 * {@code trigger} and {@code enabled}; nobody can delete them or change what they start.
 */
public final class BuiltInSchedules {

  public static final String HOUSEKEEPING = "jimflow-housekeeping";
  public static final String HISTORY_RETENTION = "jimflow-history-retention";

  /** The reserved ids, in listing order. */
  public static final List<String> IDS = List.of(HOUSEKEEPING, HISTORY_RETENTION);

  /** The keys an entry of a reserved id may carry in the schedules file. */
  public static final List<String> ALLOWED_KEYS = List.of("id", "trigger", "enabled");

  /** Action memo key holding the built-in's definition, so listings can show its trigger. */
  static final String DEFINITION_MEMO = "jimflowBuiltInDefinition";

  /** Raise when what a built-in starts changes, so the next apply rewrites it. */
  static final int VERSION = 1;

  private BuiltInSchedules() {}

  public static boolean isBuiltIn(String id) {
    return IDS.contains(id);
  }

  /** The built-in as jimflow defines it: its name, description and default trigger, enabled. */
  public static ScheduleDefinition defaults(String id) {
    return switch (id) {
      case HOUSEKEEPING ->
          definition(
              id,
              "Housekeeping",
              "Built in: deletes metaverse objects whose deletion grace period has passed (at most 50 per cycle).",
              new Trigger(null, null, new Trigger.Interval(1, null, null, null, null), null),
              true);
      case HISTORY_RETENTION ->
          definition(
              id,
              "History retention",
              "Built in: deletes change history and run records older than their retention period (90 days).",
              new Trigger(List.of("30 2 * * *"), null, null, null),
              true);
      default -> throw new IllegalArgumentException(id + " is not a built-in schedule");
    };
  }

  /** The file's definitions that are not built-in entries. */
  public static List<ScheduleDefinition> userDefined(List<ScheduleDefinition> fromFile) {
    return fromFile.stream().filter(d -> !isBuiltIn(d.id())).toList();
  }

  /**
   * Every built-in schedule to deploy: its defaults with the trigger and enabled state of the
   * file's entry of its id, if there is one (a null trigger keeps the default).
   */
  public static List<DesiredSchedule> desired(List<ScheduleDefinition> fromFile) {
    List<DesiredSchedule> desired = new ArrayList<>();
    for (String id : IDS) {
      ScheduleDefinition base = defaults(id);
      ScheduleDefinition effective =
          fromFile.stream()
              .filter(d -> d.id().equals(id))
              .findFirst()
              .map(
                  entry ->
                      definition(
                          id,
                          base.name(),
                          base.description(),
                          entry.trigger() != null ? entry.trigger() : base.trigger(),
                          entry.enabled()))
              .orElse(base);
      desired.add(desired(effective));
    }
    return desired;
  }

  static DesiredSchedule desired(ScheduleDefinition definition) {
    Fingerprint fingerprint = fingerprint(definition);
    Schedule schedule =
        Schedule.newBuilder()
            .setSpec(ScheduleSpecs.of(definition.trigger()))
            .setAction(action(definition, fingerprint))
            .setPolicy(
                SchedulePolicy.newBuilder()
                    .setOverlap(ScheduleMapper.overlap(OverlapPolicy.SKIP))
                    .build())
            .setState(
                ScheduleState.newBuilder()
                    .setPaused(!definition.enabled())
                    .setNote(definition.description())
                    .build())
            .build();
    return new DesiredSchedule(definition, schedule, fingerprint);
  }

  /** The workflow type a built-in starts. */
  static String workflowType(String id) {
    return HOUSEKEEPING.equals(id) ? HousekeepingWorkflow.TYPE : HistoryRetentionWorkflow.TYPE;
  }

  private static ScheduleActionStartWorkflow action(
      ScheduleDefinition definition, Fingerprint fingerprint) {
    Initiator schedule = new Initiator(InitiatorType.Schedule, definition.id(), definition.name());
    Object input =
        HOUSEKEEPING.equals(definition.id())
            ? new HousekeepingInput(schedule, null)
            : new HistoryRetentionInput(schedule, null, null);
    Map<String, Object> memo = new LinkedHashMap<>();
    memo.put(ScheduleMapper.MANAGED_MEMO, true);
    memo.put(ScheduleMapper.FINGERPRINT_MEMO, fingerprint.toMemo());
    memo.put(DEFINITION_MEMO, definition);
    return ScheduleActionStartWorkflow.newBuilder()
        .setWorkflowType(workflowType(definition.id()))
        .setArguments(input)
        .setOptions(
            WorkflowOptions.newBuilder()
                .setWorkflowId(definition.id())
                .setTaskQueue(TaskQueues.MAINTENANCE)
                // A cycle is short; one stuck for long must not block the next ones forever.
                .setWorkflowRunTimeout(
                    Duration.ofHours(HOUSEKEEPING.equals(definition.id()) ? 1 : 12))
                .setMemo(memo)
                .setStaticSummary(definition.name() + " (built in)")
                .setStaticDetails(definition.description())
                .build())
        .build();
  }

  static Fingerprint fingerprint(ScheduleDefinition definition) {
    Fingerprint base = ScheduleMapper.fingerprint(definition);
    String action =
        hash(
            "builtIn|"
                + definition.id()
                + "|"
                + workflowType(definition.id())
                + "|"
                + TaskQueues.MAINTENANCE
                + "|"
                + VERSION);
    return new Fingerprint(base.spec(), action, base.policies());
  }

  /** The built-in definition a deployed built-in schedule runs, read from its action's memo. */
  public static Optional<ScheduleDefinition> definitionOf(ScheduleDescription described) {
    if (!isBuiltIn(described.getId())
        || !(described.getSchedule().getAction() instanceof ScheduleActionStartWorkflow action)
        || action.getOptions().getMemo() == null) {
      return Optional.empty();
    }
    Object value = action.getOptions().getMemo().get(DEFINITION_MEMO);
    try {
      if (value instanceof EncodedValues encoded) {
        return Optional.ofNullable(encoded.get(0, ScheduleDefinition.class));
      }
      return value instanceof ScheduleDefinition d ? Optional.of(d) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static ScheduleDefinition definition(
      String id, String name, String description, Trigger trigger, boolean enabled) {
    return new ScheduleDefinition(
        id, name, description, enabled, trigger, null, OverlapPolicy.SKIP, null, List.of());
  }

  private static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
