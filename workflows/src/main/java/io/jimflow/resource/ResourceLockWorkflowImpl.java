package io.jimflow.resource;

import io.jimflow.resource.ResourceNotice.Kind;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.SignalExternalWorkflowException;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;

/**
 * Grants its resource claim by claim. Claims wait in arrival order; each waiting claimant is told
 * who holds the resource since when, so its step can show it.
 */
public class ResourceLockWorkflowImpl implements ResourceLockWorkflow {

  private static final Logger log = Workflow.getLogger(ResourceLockWorkflowImpl.class);

  /**
   * How often the holder is probed while others wait: a holder that was terminated never releases,
   * and waiting longer than this for a dead one would stall every run behind it.
   */
  public static final Duration PROBE_INTERVAL = Duration.ofSeconds(30);

  /** Continue-as-new beyond this many events keeps a busy lock's history small. */
  static final int HISTORY_LIMIT = 2_000;

  /**
   * The {@code Workflow.getVersion} change id from which claims that name their run are verified:
   * probed and released through {@link ResourceActivities#stillClaims}.
   */
  static final String VERIFIED_RELEASE_CHANGE_ID = "resource-lock-verified-release";

  private static final ActivityOptions VERIFY =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setScheduleToCloseTimeout(Duration.ofMinutes(1))
          .setRetryOptions(
              RetryOptions.newBuilder().setMaximumInterval(Duration.ofSeconds(5)).build())
          .build();

  private final ResourceActivities activities =
      Workflow.newActivityStub(ResourceActivities.class, VERIFY);
  private String resource;
  private ResourceClaim holder;
  private final Map<String, ResourceClaim> waiting = new LinkedHashMap<>();
  private final Set<String> toldAboutHolder = new HashSet<>();

  /** Releases of claims that name their run, to be honoured once that run no longer claims them. */
  private final Set<String> releasesToVerify = new LinkedHashSet<>();

  private int changes;

  @Override
  public void run(ResourceLockState state) {
    resource = state.resource();
    holder = state.holder();
    state.waiting().forEach(c -> waiting.put(c.claimId(), c));
    while (true) {
      verifyReleases();
      if (holder == null) {
        if (waiting.isEmpty()) {
          return;
        }
        ResourceClaim next = waiting.remove(waiting.keySet().iterator().next());
        ResourceClaim granted = next.grantedAt(now());
        if (notify(granted, notice(Kind.GRANTED, next.claimId(), granted))) {
          holder = granted;
          toldAboutHolder.clear();
        } else {
          log.info("{}: claimant {} has ended, skipped", resource, next.holderId());
        }
        continue;
      }
      tellWaitersWhoHoldsIt();
      if (Workflow.getInfo().getHistoryLength() > HISTORY_LIMIT) {
        Workflow.continueAsNew(state());
      }
      int seen = changes;
      if (waiting.isEmpty()) {
        Workflow.await(() -> changes != seen);
      } else if (!Workflow.await(PROBE_INTERVAL, () -> changes != seen)) {
        ResourceClaim probed = holder;
        if (!alive(probed) && holder == probed) {
          log.warn(
              "{}: holder {} has ended (or never claimed it) without releasing it",
              resource,
              probed.describeHolder());
          holder = null;
        }
      }
    }
  }

  @Override
  public void claim(ResourceClaim claim) {
    boolean known =
        waiting.containsKey(claim.claimId())
            || (holder != null && holder.claimId().equals(claim.claimId()));
    if (!known) {
      waiting.put(claim.claimId(), claim);
      changes++;
    }
  }

  @Override
  public void release(ResourceRelease release) {
    if (release == null || release.claimId() == null) {
      return;
    }
    ResourceClaim claim =
        holder != null && holder.claimId().equals(release.claimId())
            ? holder
            : waiting.get(release.claimId());
    if (claim == null) {
      return;
    }
    if (claim.holderRunId() != null) {
      // A signal names no sender: honoured once the claim's own run no longer claims it.
      releasesToVerify.add(claim.claimId());
    } else if (claim == holder) {
      holder = null;
    } else {
      waiting.remove(claim.claimId());
    }
    changes++;
  }

  /**
   * Honours each release of a claim that names its run once that run is asked and no longer claims
   * it (it gave it back, or has closed); a forged release, sent while the run holds the claim,
   * changes nothing.
   */
  private void verifyReleases() {
    while (!releasesToVerify.isEmpty()) {
      String claimId = releasesToVerify.iterator().next();
      releasesToVerify.remove(claimId);
      ResourceClaim claim =
          holder != null && holder.claimId().equals(claimId) ? holder : waiting.get(claimId);
      if (claim == null || stillClaims(claim)) {
        if (claim != null) {
          log.warn(
              "{}: release of {} ignored: {} still claims it (the release came from elsewhere)",
              resource,
              claimId,
              claim.describeHolder());
        }
        continue;
      }
      if (claim == holder) {
        holder = null;
      } else {
        waiting.remove(claimId);
      }
    }
  }

  /** Whether the holder still runs and holds its claim; by signal for claims without a run. */
  private boolean alive(ResourceClaim claim) {
    if (claim.holderRunId() == null) {
      return notify(claim, notice(Kind.PROBE, claim.claimId(), claim));
    }
    return stillClaims(claim);
  }

  /**
   * Asks the claim's run. When it cannot be asked within a minute (no worker answers), a signal to
   * that run tells at least whether it is still open: a closed run loses the claim, an open one
   * keeps it until it is asked again.
   */
  private boolean stillClaims(ResourceClaim claim) {
    Workflow.getVersion(VERIFIED_RELEASE_CHANGE_ID, Workflow.DEFAULT_VERSION, 1);
    try {
      return activities.stillClaims(claim);
    } catch (ActivityFailure unanswered) {
      log.warn(
          "{}: cannot ask whether {} still claims it ({}); probing the run instead",
          resource,
          claim.describeHolder(),
          unanswered.getMessage());
      return notify(claim, notice(Kind.PROBE, claim.claimId(), claim));
    }
  }

  @Override
  public ResourceLockState state() {
    return new ResourceLockState(resource, holder, new ArrayList<>(waiting.values()));
  }

  /** Tells each waiting claimant not yet told who holds the resource; a closed one is dropped. */
  private void tellWaitersWhoHoldsIt() {
    for (ResourceClaim claim : new ArrayList<>(waiting.values())) {
      if (toldAboutHolder.add(claim.claimId())) {
        ResourceNotice notice = notice(Kind.WAITING, claim.claimId(), holder);
        Async.procedure(
            () -> {
              if (!notify(claim, notice) && waiting.remove(claim.claimId()) != null) {
                changes++;
              }
            });
      }
    }
  }

  private ResourceNotice notice(Kind kind, String claimId, ResourceClaim current) {
    return new ResourceNotice(
        resource, claimId, kind, current.holderId(), current.description(), current.since());
  }

  /**
   * Signals the claimant, its own run when the claim names one; false when that run is closed (or
   * never existed), also when a later run of the same workflow id runs.
   */
  private static boolean notify(ResourceClaim to, ResourceNotice notice) {
    try {
      (to.holderRunId() == null
              ? Workflow.newUntypedExternalWorkflowStub(to.holderId())
              : Workflow.newUntypedExternalWorkflowStub(
                  WorkflowExecution.newBuilder()
                      .setWorkflowId(to.holderId())
                      .setRunId(to.holderRunId())
                      .build()))
          .signal(Resources.NOTICE_SIGNAL, notice);
      return true;
    } catch (SignalExternalWorkflowException | ApplicationFailure closed) {
      // The SDK reports a closed target as an ApplicationFailure of type
      // SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED_CAUSE_EXTERNAL_WORKFLOW_EXECUTION_NOT_FOUND.
      return false;
    }
  }

  private static Instant now() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
