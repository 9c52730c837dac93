package io.jimflow.dataplane.config;

import io.jimflow.store.RunType;

/**
 * A run profile of a connected system.
 *
 * @param pageSize objects per page: each page is one transaction and one heartbeat
 * @param file the CSV file an import reads or an export writes (null for synchronisations);
 *     relative paths are relative to the worker's working directory
 * @param objectType the object type it works on
 * @param stopAfterErrors a run that has this many error items stops there, FailedWithError: the
 *     source or target is broken as a whole, and going on would only add more
 */
public record RunProfileConfig(
    String id,
    String name,
    RunType runType,
    int pageSize,
    String file,
    String objectType,
    int stopAfterErrors) {

  public static final int DEFAULT_PAGE_SIZE = 2_000;

  /**
   * Error items a run may have before it stops: enough that a few bad rows in a large file never
   * stop an import, few enough that a file in the wrong format stops after one page.
   */
  public static final int DEFAULT_STOP_AFTER_ERRORS = 1_000;

  public static final int MAX_STOP_AFTER_ERRORS = 10_000_000;
}
