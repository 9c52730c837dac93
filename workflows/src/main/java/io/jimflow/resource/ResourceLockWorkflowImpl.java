package io.jimflow.resource;

import io.jimflow.resource.ResourceNotice.Kind;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.SignalExternalWorkflowException;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
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

  private String resource;
  private ResourceClaim holder;
  private final Map<String, ResourceClaim> waiting = new LinkedHashMap<>();
  private final Set<String> toldAboutHolder = new HashSet<>();
  private int changes;

  @Override
  public void run(ResourceLockState state) {
    resource = state.resource();
    holder = state.holder();
    state.waiting().forEach(c -> waiting.put(c.claimId(), c));
    while (true) {
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
        if (!notify(probed, notice(Kind.PROBE, probed.claimId(), probed)) && holder == probed) {
          log.warn("{}: holder {} has ended without releasing it", resource, probed.holderId());
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
    if (holder != null && holder.claimId().equals(release.claimId())) {
      holder = null;
      changes++;
    } else if (waiting.remove(release.claimId()) != null) {
      changes++;
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

  /** Signals the claimant; false when its workflow is closed (or never existed). */
  private static boolean notify(ResourceClaim to, ResourceNotice notice) {
    try {
      Workflow.newUntypedExternalWorkflowStub(to.holderId())
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
