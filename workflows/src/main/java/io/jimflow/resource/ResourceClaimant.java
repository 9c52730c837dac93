package io.jimflow.resource;

import io.temporal.workflow.QueryMethod;
import java.util.List;

/**
 * What every claimant run answers, so that a resource lock honours a release only from the run that
 * holds the claim: a release signal carries no sender, so the lock asks the holder's run (through
 * {@link ResourceActivities#stillClaims}) whether it still claims the resource.
 */
public interface ResourceClaimant {

  String CLAIMS_QUERY = "jimflowResourceClaims";

  /** The ids of the claims this run has made and not given back. */
  @QueryMethod(name = CLAIMS_QUERY)
  List<String> resourceClaims();
}
