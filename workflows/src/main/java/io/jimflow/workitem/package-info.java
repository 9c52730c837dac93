/**
 * Managed work items: the long-lived {@code WorkItem} workflow (it continues as new on every
 * restart), its lifecycle decisions ({@link io.jimflow.workitem.WorkItemLifecycle}) and payloads.
 *
 * <p>Workflow code here follows the determinism and versioning rules written once in {@link
 * io.jimflow.schedule}'s package-info.
 */
package io.jimflow.workitem;
