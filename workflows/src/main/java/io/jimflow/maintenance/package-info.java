/**
 * Maintenance workflows (Housekeeping, HistoryRetention, ClearConnectedSystem,
 * DeleteConnectedSystem), their policies and payloads.
 *
 * <p>Workflow code here follows the determinism and versioning rules written once in {@link
 * io.jimflow.schedule}'s package-info.
 */
package io.jimflow.maintenance;
