package io.jimflow.resource;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The I/O that resource exclusion needs: which resources a step touches, delivering a claim. */
@ActivityInterface
public interface ResourceActivities {

  /**
   * The resources a run profile touches: its connected system (by its name), and the metaverse for
   * a synchronisation.
   */
  @ActivityMethod
  StepResources resourcesOf(ResourceQuery query);

  /** Delivers a claim to the resource's lock (see {@link Resources#deliver}). */
  @ActivityMethod
  void request(ResourceRequest request);

  /**
   * Whether the run that made {@code claim} (its {@code holderRunId}) is still open and still
   * claims it ({@link ResourceClaimant#CLAIMS_QUERY}); false once that run has closed or is gone.
   */
  @ActivityMethod
  boolean stillClaims(ResourceClaim claim);
}
