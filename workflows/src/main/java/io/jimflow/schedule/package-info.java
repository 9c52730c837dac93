/**
 * Schedule executions: the {@code ScheduleExecution} workflow, its step decisions ({@link
 * io.jimflow.schedule.StepBoard}, {@link io.jimflow.schedule.FailurePolicies}) and payloads.
 *
 * <h2>Determinism</h2>
 *
 * <p>Workflow code, and every class it calls, is replayed from history whenever a worker picks an
 * execution up again, and must then issue exactly the same commands. This note holds for every
 * workflow package ({@code schedule}, {@code workitem}, {@code maintenance}, {@code resource},
 * {@code runrecords}, {@code exampledata}), whose package-info points here. So in workflow code:
 *
 * <ul>
 *   <li>time only from {@code Workflow.currentTimeMillis()}, waiting only with {@code
 *       Workflow.sleep}, {@code Workflow.await} or {@code Workflow.newTimer}; never {@code
 *       System.currentTimeMillis}, {@code Instant.now}, {@code LocalDateTime.now} or {@code
 *       Thread.sleep};
 *   <li>randomness only from {@code Workflow.newRandom()} or {@code Workflow.randomUUID()}; never
 *       {@code new Random}, {@code Math.random} or {@code UUID.randomUUID};
 *   <li>no I/O (files, network, databases), no {@code System.getenv}/{@code getProperty} or other
 *       configuration reads, no threads, executors or {@code CompletableFuture} ({@code Async} and
 *       {@code Promise} instead); logging through {@code Workflow.getLogger};
 *   <li>decisions are plain classes that take state and time as arguments.
 * </ul>
 *
 * <p>The worker-app {@code ArchitectureTest} checks these rules on every class workflow code uses.
 *
 * <h2>When a change needs {@code Workflow.getVersion}</h2>
 *
 * <p>Executions may be open while a new worker version rolls out (a work item lives for months).
 * Any change to the <em>order or kind of commands</em> a workflow emits — adding, removing or
 * reordering an activity, timer, child workflow, signal to another workflow, search-attribute
 * upsert, side effect or continue-as-new, or changing an activity's type — must keep the old path
 * for old executions behind {@code Workflow.getVersion("change-id", DEFAULT_VERSION, 1)}. Changes
 * that emit the same commands (different arguments, log text, a query's answer, a fix inside an
 * activity) need no version. {@code RecordedHistoriesReplayTest} replays the stored histories of
 * {@code workflows/src/test/resources/histories} in every build and fails on a change that breaks
 * them; after a versioned change, record a new history next to the old ones with {@code
 * RecordHistoriesIT} (docs/development.md, "Workflow changes and recorded histories").
 */
package io.jimflow.schedule;
