package io.jimflow.runrecords;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** Reads run records and run items from the store. */
@ActivityInterface
public interface RunRecordActivities {

  @ActivityMethod
  RunRecordsAnswer answer(RunRecordsQuestion question);
}
