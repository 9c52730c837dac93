package io.jimflow.schedule;

/**
 * A retried attempt of a step has started; sent by the step activity so that the {@code progress}
 * query shows the attempt under way.
 *
 * @param position the step's place in the schedule's step list, as in {@link StepRunRequest}
 * @param attempt the attempt that started, 2 or more
 */
public record StepAttempt(int position, int attempt) {}
