/**
 * Example data: the {@code GenerateExampleData} workflow, its payloads and activity interface, and
 * {@link io.jimflow.exampledata.ExamplePeople}, the seeded HR people it writes.
 *
 * <p>Workflow code here follows the determinism and versioning rules written once in {@link
 * io.jimflow.schedule}'s package-info.
 */
package io.jimflow.exampledata;
