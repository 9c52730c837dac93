/**
 * The {@code RunRecords} workflow that reads run records through a worker, and its payloads.
 *
 * <p>Workflow code here follows the determinism and versioning rules written once in {@link
 * io.jimflow.schedule}'s package-info.
 */
package io.jimflow.runrecords;
