package io.jimflow.schedule;

/**
 * What a running step records in each heartbeat: its progress and where a retried attempt resumes.
 *
 * @param processed units processed so far
 * @param total units to process, or -1 when not known
 * @param checkpoint where a retried attempt should resume; null if none yet
 * @param attempt the attempt that recorded it
 */
public record StepHeartbeat(long processed, long total, String checkpoint, int attempt) {}
