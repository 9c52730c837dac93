package io.jimflow.exampledata;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Generates example HR data on a worker ({@code ./jimflow data generate} through the client), with
 * its progress in the activity's heartbeat details.
 */
@WorkflowInterface
public interface DataGenerationWorkflow {

  String TYPE = "GenerateExampleData";

  /** The most people one run may generate. */
  int MAX_PEOPLE = 10_000_000;

  @WorkflowMethod(name = TYPE)
  DataGenerationResult run(DataGenerationInput input);
}
