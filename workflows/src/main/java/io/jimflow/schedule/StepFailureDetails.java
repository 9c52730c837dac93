package io.jimflow.schedule;

/**
 * The detail a step activity attaches to every failure it raises.
 *
 * @param attempt the attempt that failed, starting at 1
 */
public record StepFailureDetails(int attempt) {}
