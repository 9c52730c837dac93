package io.jimflow.exampledata;

import io.jimflow.schedule.ScheduleExecutionInput.Initiator;

/**
 * Example data to generate (JIM's example data template): {@code people} rows of HR data.
 *
 * @param outFile the CSV file to write, relative to the worker's jimflow home unless absolute
 * @param seed makes the data reproducible; null picks one (fixed for the run, so retries repeat it)
 */
public record DataGenerationInput(int people, String outFile, Long seed, Initiator initiator) {}
