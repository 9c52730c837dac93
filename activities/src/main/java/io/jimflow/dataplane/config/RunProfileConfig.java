package io.jimflow.dataplane.config;

import io.jimflow.store.RunType;

/**
 * A run profile of a connected system.
 *
 * @param pageSize objects per page: each page is one transaction and one heartbeat
 * @param file the CSV file an import reads or an export writes (null for synchronisations);
 *     relative paths are relative to the worker's working directory
 * @param objectType the object type it works on
 */
public record RunProfileConfig(
    String id, String name, RunType runType, int pageSize, String file, String objectType) {

  public static final int DEFAULT_PAGE_SIZE = 2_000;
}
