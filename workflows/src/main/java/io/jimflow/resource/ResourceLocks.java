package io.jimflow.resource;

import io.jimflow.resource.ResourceNotice.Kind;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.SignalExternalWorkflowException;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The claimant's side of resource exclusion, for use in workflow code: takes a step's resources one
 * after the other in lock order, waits for each grant, and gives them back.
 *
 * <p>The workflow must route its {@link Resources#NOTICE_SIGNAL} signal to {@link #onNotice}.
 */
public final class ResourceLocks implements ResourceClaimant {

  /**
   * The {@code Workflow.getVersion} change id from which claims name their run: the claim id holds
   * the run id (unique per run), and the lock signals and probes that run only.
   */
  public static final String RUN_CLAIMS_CHANGE_ID = "resource-claims-by-run";

  private static final ActivityOptions OPTIONS =
      ActivityOptions.newBuilder()
          .setStartToCloseTimeout(Duration.ofSeconds(30))
          .setRetryOptions(
              RetryOptions.newBuilder()
                  .setMaximumInterval(Duration.ofSeconds(10))
                  .setMaximumAttempts(20)
                  .build())
          .build();

  private final ResourceActivities activities;
  private final Map<String, ResourceNotice> notices = new HashMap<>();
  private final Set<String> claims = new LinkedHashSet<>();
  private int received;

  /** Must be made in workflow code: registers the claims query the locks ask. */
  public ResourceLocks() {
    this.activities = Workflow.newActivityStub(ResourceActivities.class, OPTIONS);
    Workflow.registerListener(this);
  }

  @Override
  public List<String> resourceClaims() {
    return List.copyOf(claims);
  }

  /** Resources held by one claimant, to give back with {@link #release}. */
  public record Held(List<ResourceRequest> requests) {}

  /** Takes a notice from a resource lock. */
  public void onNotice(ResourceNotice notice) {
    if (notice != null && notice.kind() != Kind.PROBE) {
      notices.put(notice.claimId(), notice);
      received++;
    }
  }

  /** The resources a run profile of a connected system touches, in lock order. */
  public List<String> resourcesOf(String connectedSystem, String runProfile) {
    return activities.resourcesOf(new ResourceQuery(connectedSystem, runProfile)).resources();
  }

  /**
   * Takes {@code resources} in lock order and returns once all are held. {@code onWait} hears who
   * holds a resource the claimant waits for. If the current scope is cancelled meanwhile (or a
   * claim cannot be delivered), the claims made so far are withdrawn and the failure propagates.
   *
   * @param claimId unique per claimant within this workflow (e.g. the step's position)
   */
  public Held acquire(
      List<String> resources, String claimId, String description, Consumer<ResourceNotice> onWait) {
    String self = Workflow.getInfo().getWorkflowId();
    List<ResourceRequest> made = new ArrayList<>();
    try {
      for (String resource : Resources.inLockOrder(resources)) {
        boolean byRun = Workflow.getVersion(RUN_CLAIMS_CHANGE_ID, Workflow.DEFAULT_VERSION, 1) >= 1;
        String run = byRun ? Workflow.getInfo().getRunId() : null;
        ResourceRequest request =
            new ResourceRequest(
                resource,
                new ResourceClaim(
                    self + "#" + claimId + "@" + resource + (byRun ? "#" + run : ""),
                    self,
                    description,
                    Instant.ofEpochMilli(Workflow.currentTimeMillis()),
                    run));
        made.add(request);
        claims.add(request.claim().claimId());
        // Not cancellable half-way: a claim that reaches the lock after it was withdrawn would be
        // granted to a claimant that no longer wants it.
        Workflow.newDetachedCancellationScope(() -> activities.request(request)).run();
        awaitGrant(request.claim().claimId(), onWait);
      }
      return new Held(List.copyOf(made));
    } catch (RuntimeException e) {
      release(new Held(made));
      throw e;
    }
  }

  private void awaitGrant(String claimId, Consumer<ResourceNotice> onWait) {
    ResourceNotice shown = null;
    while (true) {
      ResourceNotice latest = notices.get(claimId);
      if (latest != null && latest.kind() == Kind.GRANTED) {
        notices.remove(claimId);
        return;
      }
      if (latest != null && latest != shown) {
        onWait.accept(latest);
        shown = latest;
      }
      int seen = received;
      Workflow.await(() -> received != seen);
    }
  }

  /**
   * Gives every resource of {@code held} back, also when the workflow is being cancelled. A lock
   * that has ended already needs nothing.
   */
  public void release(Held held) {
    if (held == null || held.requests().isEmpty()) {
      return;
    }
    // Given up here first: the lock asks this run whether it still claims them before it honours
    // the release.
    held.requests().forEach(r -> claims.remove(r.claim().claimId()));
    Workflow.newDetachedCancellationScope(
            () -> {
              for (ResourceRequest request : held.requests()) {
                try {
                  Workflow.newUntypedExternalWorkflowStub(
                          Resources.lockWorkflowId(request.resource()))
                      .signal(
                          ResourceLockWorkflow.RELEASE,
                          new ResourceRelease(request.claim().claimId()));
                } catch (SignalExternalWorkflowException | ApplicationFailure lockEnded) {
                  // Nothing to give back.
                }
              }
            })
        .run();
  }
}
