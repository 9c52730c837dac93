package io.jimflow.runrecords;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * Answers a question about run records on a worker, which owns the store: the CLI and programs
 * reach the records through Temporal, wherever the store is.
 */
@WorkflowInterface
public interface RunRecordsWorkflow {

  String TYPE = "RunRecords";

  @WorkflowMethod(name = TYPE)
  RunRecordsAnswer run(RunRecordsQuestion question);
}
