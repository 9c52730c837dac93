package io.jimflow.client;

import io.jimflow.common.SearchAttributeSetup;
import io.jimflow.encryption.PayloadEncryption;
import io.temporal.client.WorkflowClient;
import io.temporal.client.schedules.ScheduleClient;

/**
 * jimflow for programs: one connection to a Temporal namespace, with a facet per concern.
 *
 * <ul>
 *   <li>{@link #executions()}: start schedule executions now, follow, wait for, show, cancel and
 *       list them;
 *   <li>{@link #schedules()}: plan and apply schedules files as Temporal Schedules, list, pause,
 *       resume, trigger, backfill and delete them;
 *   <li>{@link #runRecords()}: run records and their items, read from the store by a worker;
 *   <li>{@link #maintenance()}: housekeeping, clearing and deleting connected systems, example
 *       data;
 *   <li>{@link #workItems()}: schedule, move, cancel, show and list work items.
 * </ul>
 *
 * <p>Create one with {@link #connect(ConnectionSettings)} and close it when done; it and its facets
 * are thread-safe.
 */
public final class JimflowClient implements AutoCloseable {

  private final TemporalConnection connection;
  private final ScheduleDeploymentClient schedules;
  private final RunRecordClient runRecords;
  private final ExecutionClient executions;
  private final MaintenanceClient maintenance;
  private final WorkItemClient workItems;

  /**
   * Uses clients created elsewhere (e.g. a test environment's); {@link #close()} leaves them open.
   */
  public JimflowClient(WorkflowClient workflows, ScheduleClient schedules) {
    this(TemporalConnection.over(workflows, schedules));
  }

  private JimflowClient(TemporalConnection connection) {
    this.connection = connection;
    this.runRecords = new RunRecordClient(connection.workflows());
    this.schedules = new ScheduleDeploymentClient(connection, runRecords);
    this.executions = new ExecutionClient(connection, schedules, runRecords);
    this.maintenance = new MaintenanceClient(connection.workflows());
    this.workItems = new WorkItemClient(connection.workflows());
  }

  /**
   * Connects and checks that the server answers and the namespace exists; payloads are encrypted
   * and decrypted with the keys {@link PayloadEncryption#fromEnvironment()} names, if any.
   *
   * @throws JimflowConnectionException naming the address that failed and how to start a server
   * @throws io.jimflow.encryption.PayloadKeysException when the payload keys cannot be read
   */
  public static JimflowClient connect(ConnectionSettings settings) {
    return connect(settings, PayloadEncryption.fromEnvironment());
  }

  /**
   * Connects like {@link #connect(ConnectionSettings)}, with the given payload encryption (the same
   * keys the workers have, or off).
   */
  public static JimflowClient connect(ConnectionSettings settings, PayloadEncryption encryption) {
    return new JimflowClient(TemporalConnection.open(settings, encryption));
  }

  /** Schedule executions: start, follow, await, show, cancel, list. */
  public ExecutionClient executions() {
    return executions;
  }

  /** The Temporal Schedules made from schedules files, and the built-in ones. */
  public ScheduleDeploymentClient schedules() {
    return schedules;
  }

  /** Run records (JIM's audit "activities") and their run items. */
  public RunRecordClient runRecords() {
    return runRecords;
  }

  /** Maintenance tasks: housekeeping now, clearing and deleting connected systems, example data. */
  public MaintenanceClient maintenance() {
    return maintenance;
  }

  /** The work item API (seed 003): schedule, start time, cancel, show, list. */
  public WorkItemClient workItems() {
    return workItems;
  }

  /** Checks and registers jimflow's search attributes in this client's namespace. */
  public SearchAttributeSetup searchAttributeSetup() {
    return new SearchAttributeSetup(connection.stubs(), connection.namespace());
  }

  /**
   * Whether any worker has polled the task queue lately (the server remembers pollers for about a
   * minute), i.e. whether started workflows will be picked up.
   */
  public boolean hasWorker(String taskQueue) {
    return connection.hasWorker(taskQueue);
  }

  @Override
  public void close() {
    connection.close();
  }
}
