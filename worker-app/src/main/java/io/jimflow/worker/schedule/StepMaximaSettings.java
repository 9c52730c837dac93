package io.jimflow.worker.schedule;

import io.jimflow.schedule.steps.StepMaxima;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The most a step may ask of this worker ({@code jimflow.steps.maxima.*}), whatever its definition
 * says: e.g. {@code JIMFLOW_STEPS_MAXIMA_TIMEOUT=6h}. A step asking for more runs with these, and
 * its message says so; see {@link StepMaxima}.
 *
 * @param timeout one attempt of an Executable or SqlScript step (24 h)
 * @param attempts attempts of any step (10)
 * @param cpuSeconds a program's CPU time; unset: no maximum
 * @param memoryMegabytes a program's address space; unset: no maximum
 * @param openFiles a program's open files; unset: no maximum
 */
@ConfigurationProperties("jimflow.steps.maxima")
public record StepMaximaSettings(
    Duration timeout, Integer attempts, Long cpuSeconds, Long memoryMegabytes, Integer openFiles) {

  /** The maxima the step activities hold steps to; invalid values stop the worker's start. */
  public StepMaxima maxima() {
    return new StepMaxima(
        timeout,
        attempts == null ? StepMaxima.DEFAULT_ATTEMPTS : attempts,
        cpuSeconds,
        memoryMegabytes,
        openFiles);
  }
}
