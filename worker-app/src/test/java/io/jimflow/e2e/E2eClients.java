package io.jimflow.e2e;

import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the dev-server tests ({@link E2eEnvironment}) and the topology tests ({@link
 * TopologyEnvironment}) share, whichever Temporal server they run: one connection to it with its
 * workflow and schedule clients, and the settings every worker process they start gets.
 */
final class E2eClients implements AutoCloseable {

  private final WorkflowServiceStubs stubs;
  private final WorkflowClient client;
  private final ScheduleClient scheduleClient;

  /** Connects to the server at {@code target}; the clients speak to {@code namespace}. */
  E2eClients(String target, String namespace) {
    this.stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder().setTarget(target).build());
    this.client = client(namespace);
    this.scheduleClient =
        ScheduleClient.newInstance(
            stubs, ScheduleClientOptions.newBuilder().setNamespace(namespace).build());
  }

  WorkflowServiceStubs stubs() {
    return stubs;
  }

  WorkflowClient client() {
    return client;
  }

  ScheduleClient scheduleClient() {
    return scheduleClient;
  }

  /** A client of another namespace on the same server, over the same connection. */
  WorkflowClient client(String namespace) {
    return WorkflowClient.newInstance(
        stubs, WorkflowClientOptions.newBuilder().setNamespace(namespace).build());
  }

  /**
   * Fills in the settings of a worker process on this server that the test did not give: the
   * server's address and namespace, the jimflow home and the data plane's base directory.
   */
  static void workerDefaults(
      Map<String, String> env,
      String target,
      String namespace,
      Path projectHome,
      Path dataPlaneDirectory) {
    env.putIfAbsent("TEMPORAL_ADDRESS", target);
    env.putIfAbsent("TEMPORAL_NAMESPACE", namespace);
    env.putIfAbsent("JIMFLOW_HOME", projectHome.toString());
    env.putIfAbsent("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", dataPlaneDirectory.toString());
  }

  @Override
  public void close() {
    stubs.shutdownNow();
  }
}
