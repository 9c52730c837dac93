package io.jimflow.schedule.deploy;

import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.jimflow.common.JimflowSearchAttributes;
import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ExecutionMetadata;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.temporal.api.enums.v1.ScheduleOverlapPolicy;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.schedules.Schedule;
import io.temporal.client.schedules.ScheduleActionStartWorkflow;
import io.temporal.client.schedules.SchedulePolicy;
import io.temporal.client.schedules.ScheduleState;
import io.temporal.common.SearchAttributes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/** Maps a {@link ScheduleDefinition} to the Temporal {@link Schedule} that runs it. */
public final class ScheduleMapper {

  /** Memo key marking a schedule (and the executions it starts) as created by jimflow. */
  public static final String MANAGED_MEMO = "jimflowManaged";

  /** Memo key of the executions' memo holding the {@link Fingerprint} of the definition. */
  public static final String FINGERPRINT_MEMO = "jimflowFingerprint";

  /**
   * Memo key holding the scope (schedules file) that owns the schedule; in the action's memo, which
   * an update can change, and in the schedule's own memo.
   */
  public static final String SCOPE_MEMO = "jimflowScope";

  /** Memo key holding the definition's description. */
  public static final String NOTE_MEMO = "note";

  /**
   * Part of every fingerprint: raising it makes the next apply rewrite every schedule, which is
   * needed whenever this mapping itself changes.
   */
  static final int MAPPING_VERSION = 2;

  private static final ObjectMapper CANONICAL =
      JsonMapper.builder()
          .addModule(new JavaTimeModule())
          .configure(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY, true)
          .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
          .configure(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, false)
          .build();

  private ScheduleMapper() {}

  /** The schedule to deploy for a definition, with its fingerprint, outside any scope. */
  public static DesiredSchedule desired(ScheduleDefinition definition) {
    return desired(definition, null);
  }

  /** The schedule to deploy for a definition of the file that owns {@code scope}. */
  public static DesiredSchedule desired(ScheduleDefinition definition, String scope) {
    Fingerprint fingerprint = fingerprint(definition);
    Schedule schedule =
        Schedule.newBuilder()
            .setSpec(ScheduleSpecs.of(definition.trigger()))
            .setAction(action(definition, fingerprint, scope))
            .setPolicy(policy(definition))
            .setState(
                ScheduleState.newBuilder()
                    .setPaused(!definition.enabled())
                    .setNote(note(definition))
                    .build())
            .build();
    return new DesiredSchedule(definition, schedule, fingerprint, scope);
  }

  /** The input a scheduled run starts with: the definition snapshot, started by the schedule. */
  public static ScheduleExecutionInput scheduledInput(ScheduleDefinition definition) {
    return new ScheduleExecutionInput(
        definition,
        new Initiator(InitiatorType.Schedule, definition.id(), definition.name()),
        TriggerKind.Scheduled,
        null);
  }

  static ScheduleActionStartWorkflow action(
      ScheduleDefinition definition, Fingerprint fingerprint, String scope) {
    Map<String, Object> memo = new LinkedHashMap<>();
    memo.put(MANAGED_MEMO, true);
    memo.put(FINGERPRINT_MEMO, fingerprint.toMemo());
    if (scope != null) {
      memo.put(SCOPE_MEMO, scope);
    }
    if (definition.description() != null) {
      memo.put(NOTE_MEMO, definition.description());
    }
    ScheduleExecutionInput input = scheduledInput(definition);
    return ScheduleActionStartWorkflow.newBuilder()
        .setWorkflowType(ScheduleExecutionWorkflow.TYPE)
        .setArguments(input)
        .setOptions(
            WorkflowOptions.newBuilder()
                // Temporal appends the nominal start time, so each run's id is unique and readable.
                .setWorkflowId(definition.id())
                .setTaskQueue(TaskQueues.SCHEDULES)
                .setTypedSearchAttributes(
                    SearchAttributes.newBuilder()
                        .set(JimflowSearchAttributes.SCHEDULE_ID, definition.id())
                        .set(JimflowSearchAttributes.STATUS, ExecutionStatus.InProgress.name())
                        .build())
                .setMemo(memo)
                .setStaticSummary(
                    ExecutionMetadata.summary(definition, input.initiator(), TriggerKind.Scheduled))
                .setStaticDetails(
                    ExecutionMetadata.details(definition, input.initiator(), TriggerKind.Scheduled))
                .build())
        .build();
  }

  static SchedulePolicy policy(ScheduleDefinition definition) {
    SchedulePolicy.Builder policy =
        SchedulePolicy.newBuilder().setOverlap(overlap(definition.overlap()));
    if (definition.catchupWindow() != null) {
      policy.setCatchupWindow(definition.catchupWindow());
    }
    return policy.build();
  }

  /** Temporal's overlap policy for jimflow's. */
  public static ScheduleOverlapPolicy overlap(ScheduleDefinition.OverlapPolicy overlap) {
    return switch (overlap) {
      case SKIP -> ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_SKIP;
      case BUFFER_ONE -> ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE;
      case ALLOW_ALL -> ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_ALLOW_ALL;
      case CANCEL_OTHER -> ScheduleOverlapPolicy.SCHEDULE_OVERLAP_POLICY_CANCEL_OTHER;
    };
  }

  static Fingerprint fingerprint(ScheduleDefinition d) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("trigger", d.trigger());
    Map<String, Object> action = new LinkedHashMap<>();
    action.put("name", d.name());
    action.put("description", d.description());
    action.put("onStepFailure", d.onStepFailure());
    action.put("steps", d.steps());
    action.put("taskQueue", TaskQueues.SCHEDULES);
    action.put("workflowType", ScheduleExecutionWorkflow.TYPE);
    if (d.notificationUrl() != null) {
      // Only when set, so that schedules without one keep the fingerprints they had.
      action.put("notificationUrl", d.notificationUrl());
    }
    Map<String, Object> policies = new LinkedHashMap<>();
    policies.put("overlap", d.overlap());
    policies.put("catchupWindow", d.catchupWindow());
    return new Fingerprint(hash(spec), hash(action), hash(policies));
  }

  private static String note(ScheduleDefinition definition) {
    return definition.description() == null
        ? "Managed by jimflow: " + definition.name()
        : definition.description();
  }

  private static String hash(Map<String, Object> part) {
    part.put("mappingVersion", MAPPING_VERSION);
    try {
      byte[] canonical = CANONICAL.writeValueAsString(part).getBytes(StandardCharsets.UTF_8);
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical);
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | NoSuchAlgorithmException e) {
      throw new IllegalStateException("cannot fingerprint a schedule definition", e);
    }
  }
}
