package io.jimflow.workitem;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a program schedules: one work item, addressed by its guid.
 *
 * <p>Scheduling the same guid again before the item started replaces it; {@link #withDefaults()}
 * fills every optional field, {@link #problems()} lists what is wrong with the rest.
 *
 * @param guid the InstanceGuid; becomes the workflow id, so it addresses the item for its whole
 *     life
 * @param kind the handler's kind name, as registered in the worker
 * @param stateJson the item's serializable state (JSON) handed to the handler; null means "{}"
 * @param startTime planned start; null schedules the item Suspended until changeStartTime wakes it
 * @param expectedRunTime how long a run normally takes; orders the queue (see docs/work-items.md)
 * @param maxRunTime after this the item receives WorkItemShouldFinish and becomes
 *     CancellingBySystem
 * @param gracePeriod how long an item may take to end after WorkItemShouldFinish before it is
 *     Killed
 * @param maxRestarts MaxNumberOfRestarts: how many timeout and error retries the item gets; {@link
 *     #DEFAULT} (-1) for the default
 * @param retryDelay the delay before a timeout or error retry; a small random jitter is added
 * @param heartbeatTimeout how soon a crashed worker is noticed (then Aborted → AbortedRestart)
 * @param predecessorGuid an item that must reach a final state before this one may start; may be
 *     null
 */
public record WorkItemSpec(
    String guid,
    String kind,
    String stateJson,
    Instant startTime,
    Duration expectedRunTime,
    Duration maxRunTime,
    Duration gracePeriod,
    int maxRestarts,
    Duration retryDelay,
    Duration heartbeatTimeout,
    String predecessorGuid) {

  /** The {@code maxRestarts} value that {@link #withDefaults()} replaces by the default. */
  public static final int DEFAULT = -1;

  public static final Duration DEFAULT_EXPECTED_RUN_TIME = Duration.ofMinutes(1);
  public static final Duration DEFAULT_MAX_RUN_TIME = Duration.ofHours(1);
  public static final Duration DEFAULT_GRACE_PERIOD = Duration.ofMinutes(1);
  public static final int DEFAULT_MAX_RESTARTS = 3;
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(10);
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(30);

  /**
   * A run's hard bound (its activity's start-to-close timeout) lies this far behind {@code
   * maxRunTime + gracePeriod}, so that the work manager's own kill comes first.
   */
  public static final Duration RUN_BOUND_MARGIN = Duration.ofSeconds(10);

  /**
   * A spec with every optional field at its default; set the rest with the {@code with…} methods.
   */
  public static WorkItemSpec of(String guid, String kind, String stateJson, Instant startTime) {
    return new WorkItemSpec(
            guid, kind, stateJson, startTime, null, null, null, DEFAULT, null, null, null)
        .withDefaults();
  }

  /**
   * This spec with null durations, restart count {@link #DEFAULT} and a null state replaced by
   * defaults.
   */
  public WorkItemSpec withDefaults() {
    return new WorkItemSpec(
        guid,
        kind,
        stateJson == null ? "{}" : stateJson,
        startTime,
        expectedRunTime == null ? DEFAULT_EXPECTED_RUN_TIME : expectedRunTime,
        maxRunTime == null ? DEFAULT_MAX_RUN_TIME : maxRunTime,
        gracePeriod == null ? DEFAULT_GRACE_PERIOD : gracePeriod,
        maxRestarts == DEFAULT ? DEFAULT_MAX_RESTARTS : maxRestarts,
        retryDelay == null ? DEFAULT_RETRY_DELAY : retryDelay,
        heartbeatTimeout == null ? DEFAULT_HEARTBEAT_TIMEOUT : heartbeatTimeout,
        predecessorGuid);
  }

  /** Every problem of this spec, each naming the field; empty when it can be scheduled. */
  public List<String> problems() {
    List<String> p = new ArrayList<>();
    if (guid == null || guid.isBlank()) {
      p.add("guid: must not be empty");
    }
    if (kind == null || kind.isBlank()) {
      p.add("kind: must not be empty");
    }
    positive(p, "expectedRunTime", expectedRunTime);
    positive(p, "maxRunTime", maxRunTime);
    positive(p, "gracePeriod", gracePeriod);
    positive(p, "retryDelay", retryDelay);
    positive(p, "heartbeatTimeout", heartbeatTimeout);
    if (maxRestarts < 0) {
      p.add("maxRestarts: must be 0 or more, was " + maxRestarts);
    }
    if (predecessorGuid != null && predecessorGuid.equals(guid)) {
      p.add("predecessorGuid: an item cannot be its own predecessor (" + guid + ")");
    }
    return p;
  }

  private static void positive(List<String> p, String field, Duration d) {
    if (d == null || d.isZero() || d.isNegative()) {
      p.add(field + ": must be a positive duration, was " + d);
    }
  }

  public WorkItemSpec withStartTime(Instant newStartTime) {
    Draft draft = new Draft(this);
    draft.startTime = newStartTime;
    return draft.spec();
  }

  public WorkItemSpec withState(String newStateJson) {
    Draft draft = new Draft(this);
    draft.stateJson = newStateJson;
    return draft.spec();
  }

  public WorkItemSpec withRunTimes(Duration expected, Duration max, Duration grace) {
    Draft draft = new Draft(this);
    draft.expectedRunTime = expected;
    draft.maxRunTime = max;
    draft.gracePeriod = grace;
    return draft.spec();
  }

  public WorkItemSpec withRestarts(int max, Duration delay) {
    Draft draft = new Draft(this);
    draft.maxRestarts = max;
    draft.retryDelay = delay;
    return draft.spec();
  }

  public WorkItemSpec withHeartbeatTimeout(Duration timeout) {
    Draft draft = new Draft(this);
    draft.heartbeatTimeout = timeout;
    return draft.spec();
  }

  public WorkItemSpec withPredecessor(String predecessor) {
    Draft draft = new Draft(this);
    draft.predecessorGuid = predecessor;
    return draft.spec();
  }

  /** True when both specs schedule the same thing (so a repeated schedule call changes nothing). */
  public boolean sameAs(WorkItemSpec other) {
    return Objects.equals(this, other);
  }

  /** A changeable copy of a spec's fields, so that each {@code with…} method names only its own. */
  private static final class Draft {
    private final String guid;
    private final String kind;
    private String stateJson;
    private Instant startTime;
    private Duration expectedRunTime;
    private Duration maxRunTime;
    private Duration gracePeriod;
    private int maxRestarts;
    private Duration retryDelay;
    private Duration heartbeatTimeout;
    private String predecessorGuid;

    Draft(WorkItemSpec spec) {
      guid = spec.guid;
      kind = spec.kind;
      stateJson = spec.stateJson;
      startTime = spec.startTime;
      expectedRunTime = spec.expectedRunTime;
      maxRunTime = spec.maxRunTime;
      gracePeriod = spec.gracePeriod;
      maxRestarts = spec.maxRestarts;
      retryDelay = spec.retryDelay;
      heartbeatTimeout = spec.heartbeatTimeout;
      predecessorGuid = spec.predecessorGuid;
    }

    WorkItemSpec spec() {
      return new WorkItemSpec(
          guid,
          kind,
          stateJson,
          startTime,
          expectedRunTime,
          maxRunTime,
          gracePeriod,
          maxRestarts,
          retryDelay,
          heartbeatTimeout,
          predecessorGuid);
    }
  }
}
