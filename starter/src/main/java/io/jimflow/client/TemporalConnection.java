package io.jimflow.client;

import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jimflow.encryption.PayloadEncryption;
import io.temporal.api.enums.v1.TaskQueueType;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.DescribeTaskQueueRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.schedules.ScheduleClient;
import io.temporal.client.schedules.ScheduleClientOptions;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One connection to a Temporal namespace, shared by every facet of a {@link JimflowClient}: the
 * channel (with TLS or an API key), the workflow and schedule clients over it, and the network
 * thread it owns.
 */
final class TemporalConnection implements AutoCloseable {

  /**
   * How long the first call may take, connection included: a refused connection fails at once, a
   * host that does not answer after this; generous, because on a busy machine setting up gRPC alone
   * can take seconds.
   */
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

  private final WorkflowClient workflows;
  private final ScheduleClient schedules;
  private final WorkflowServiceStubs ownedStubs;
  private final ClientNetwork network;

  private TemporalConnection(
      WorkflowClient workflows,
      ScheduleClient schedules,
      WorkflowServiceStubs ownedStubs,
      ClientNetwork network) {
    this.workflows = workflows;
    this.schedules = schedules;
    this.ownedStubs = ownedStubs;
    this.network = network;
  }

  /** Over clients created elsewhere (e.g. a test environment's); closing leaves them open. */
  static TemporalConnection over(WorkflowClient workflows, ScheduleClient schedules) {
    return new TemporalConnection(workflows, schedules, null, null);
  }

  /**
   * Connects and checks that the server answers and the namespace exists.
   *
   * @throws JimflowConnectionException naming the address that failed and how to start a server
   */
  static TemporalConnection open(ConnectionSettings settings, PayloadEncryption encryption) {
    // No health check before the first call: one call that needs the namespace tells both whether
    // the server answers and whether the namespace exists. The SDK asks the server for its
    // capabilities before that call, retrying while it cannot reach it, up to the deadline.
    ClientNetwork network = new ClientNetwork();
    WorkflowServiceStubs stubs;
    try {
      stubs = WorkflowServiceStubs.newServiceStubs(stubOptions(settings, network));
    } catch (RuntimeException e) {
      network.close();
      throw unreachable(settings, e);
    }
    try {
      stubs
          .blockingStub()
          .withDeadline(Deadline.after(CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
          .describeNamespace(
              DescribeNamespaceRequest.newBuilder().setNamespace(settings.namespace()).build());
    } catch (StatusRuntimeException e) {
      shutDown(stubs, network);
      throw connectionFailure(settings, e);
    } catch (RuntimeException e) {
      shutDown(stubs, network);
      throw unreachable(settings, e);
    }
    String identity = identity();
    WorkflowClient workflows =
        WorkflowClient.newInstance(
            stubs,
            WorkflowClientOptions.newBuilder()
                .setNamespace(settings.namespace())
                .setIdentity(identity)
                .setDataConverter(encryption.dataConverter())
                .build());
    ScheduleClient schedules =
        ScheduleClient.newInstance(
            stubs,
            ScheduleClientOptions.newBuilder()
                .setNamespace(settings.namespace())
                .setIdentity(identity)
                .setDataConverter(encryption.dataConverter())
                .build());
    return new TemporalConnection(workflows, schedules, stubs, network);
  }

  WorkflowClient workflows() {
    return workflows;
  }

  ScheduleClient schedules() {
    return schedules;
  }

  WorkflowServiceStubs stubs() {
    return workflows.getWorkflowServiceStubs();
  }

  String namespace() {
    return workflows.getOptions().getNamespace();
  }

  /**
   * Whether any worker has polled the task queue lately (the server remembers pollers for about a
   * minute), i.e. whether started workflows will be picked up.
   */
  boolean hasWorker(String taskQueue) {
    return stubs()
            .blockingStub()
            .describeTaskQueue(
                DescribeTaskQueueRequest.newBuilder()
                    .setNamespace(namespace())
                    .setTaskQueue(TaskQueue.newBuilder().setName(taskQueue))
                    .setTaskQueueType(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW)
                    .build())
            .getPollersCount()
        > 0;
  }

  @Override
  public void close() {
    if (ownedStubs != null) {
      shutDown(ownedStubs, network);
    }
  }

  /** Ends the channel, then its network thread (the calls made through them have all ended). */
  private static void shutDown(WorkflowServiceStubs stubs, ClientNetwork network) {
    stubs.shutdown();
    if (!stubs.awaitTermination(1, TimeUnit.SECONDS)) {
      stubs.shutdownNow();
    }
    network.close();
  }

  private static JimflowConnectionException connectionFailure(
      ConnectionSettings settings, StatusRuntimeException e) {
    Status.Code code = e.getStatus().getCode();
    if (code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED) {
      return unreachable(settings, e);
    }
    String reason =
        code == Status.Code.NOT_FOUND
            ? "does not exist"
            : "cannot be used (" + code + ": " + e.getStatus().getDescription() + ")";
    return new JimflowConnectionException(
        "Temporal at "
            + settings.address()
            + " answers, but namespace '"
            + settings.namespace()
            + "' "
            + reason
            + ".",
        e);
  }

  private static JimflowConnectionException unreachable(
      ConnectionSettings settings, RuntimeException e) {
    return new JimflowConnectionException(
        "Cannot reach Temporal at "
            + settings.address()
            + " ("
            + rootMessage(e)
            + "). Start a local server with ./jimflow dev, or point --address / TEMPORAL_ADDRESS"
            + " at yours.",
        e);
  }

  /**
   * Who the server records as the caller of what this client does: {@code pid@host}, the SDK's own
   * default, but without the JVM's management beans, whose start the SDK would pay for it and which
   * is a noticeable part of a short CLI command's time.
   */
  static String identity() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (IOException | RuntimeException e) {
      host = "localhost";
    }
    return ProcessHandle.current().pid() + "@" + host;
  }

  private static WorkflowServiceStubsOptions stubOptions(
      ConnectionSettings settings, ClientNetwork network) {
    WorkflowServiceStubsOptions.Builder options =
        network.apply(WorkflowServiceStubsOptions.newBuilder().setTarget(settings.address()));
    if (settings.tlsCert() != null) {
      try (InputStream cert = Files.newInputStream(settings.tlsCert());
          InputStream key = Files.newInputStream(settings.tlsKey())) {
        options.setSslContext(SimpleSslContextBuilder.forPKCS8(cert, key).build());
      } catch (IOException e) {
        throw new JimflowConnectionException(
            "Cannot read the TLS certificate "
                + settings.tlsCert()
                + " or key "
                + settings.tlsKey()
                + ": "
                + e.getMessage(),
            e);
      }
    } else if (settings.apiKey() != null) {
      options.setEnableHttps(true);
    }
    if (settings.apiKey() != null) {
      String apiKey = settings.apiKey();
      options.addApiKey(() -> apiKey);
    }
    return options.build();
  }

  /** The message of the innermost cause, or its type when it has none. */
  static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
