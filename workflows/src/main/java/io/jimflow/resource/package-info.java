/**
 * Exclusion by resource: a {@code ResourceLock} workflow per resource (a connected system, the
 * metaverse) grants it to one claimant at a time; {@code ResourceLocks} is the claimant's side for
 * workflow code.
 *
 * <p>A claimant takes the resources of one step in {@link
 * io.jimflow.resource.Resources#inLockOrder} (so two claimants never wait for each other), is told
 * by signal that it holds a resource or who holds it meanwhile, and gives it back by signal when
 * its step ends, also when it is cancelled. A holder that closes without giving it back
 * (terminated, timed out) is found by the lock's probe signal while others wait. A lock with nobody
 * holding or waiting ends; a busy one continues as new before its history grows large.
 *
 * <p>Workflow code here follows the determinism and versioning rules written once in {@link
 * io.jimflow.schedule}'s package-info.
 */
package io.jimflow.resource;
