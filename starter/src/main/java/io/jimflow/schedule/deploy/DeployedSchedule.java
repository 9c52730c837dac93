package io.jimflow.schedule.deploy;

/**
 * What a plan needs to know of a schedule that exists on the server.
 *
 * @param managed whether jimflow created it; unmanaged schedules are never changed or deleted
 * @param fingerprint what it was deployed from; null when unknown (then everything counts as
 *     changed)
 * @param scope the scope (schedules file) that owns it; null for one deployed before scopes, which
 *     the first apply that names it adopts
 */
public record DeployedSchedule(
    String id, boolean managed, Fingerprint fingerprint, boolean paused, String scope) {

  /** A schedule without a recorded scope. */
  public DeployedSchedule(String id, boolean managed, Fingerprint fingerprint, boolean paused) {
    this(id, managed, fingerprint, paused, null);
  }
}
