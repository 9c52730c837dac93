package io.jimflow.exampledata;

/** What example data generation wrote: how many people to which file. */
public record DataGenerationResult(String outFile, long peopleWritten) {}
