package io.jimflow.schedules;

/**
 * What a plan needs to know of a schedule that exists on the server.
 *
 * @param managed whether jimflow created it; unmanaged schedules are never changed or deleted
 * @param fingerprint what it was deployed from; null when unknown (then everything counts as
 *     changed)
 */
public record DeployedSchedule(
    String id, boolean managed, Fingerprint fingerprint, boolean paused) {}
