package io.jimflow.cli.training;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.StreamObserver;
import io.jimflow.cli.CliLogging;
import io.jimflow.cli.JimflowCli;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.namespace.v1.NamespaceInfo;
import io.temporal.api.schedule.v1.Range;
import io.temporal.api.schedule.v1.Schedule;
import io.temporal.api.schedule.v1.ScheduleInfo;
import io.temporal.api.schedule.v1.ScheduleListEntry;
import io.temporal.api.schedule.v1.ScheduleListInfo;
import io.temporal.api.schedule.v1.StructuredCalendarSpec;
import io.temporal.api.workflowservice.v1.CreateScheduleRequest;
import io.temporal.api.workflowservice.v1.CreateScheduleResponse;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.DescribeNamespaceResponse;
import io.temporal.api.workflowservice.v1.DescribeScheduleRequest;
import io.temporal.api.workflowservice.v1.DescribeScheduleResponse;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoResponse;
import io.temporal.api.workflowservice.v1.ListSchedulesRequest;
import io.temporal.api.workflowservice.v1.ListSchedulesResponse;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsResponse;
import io.temporal.api.workflowservice.v1.WorkflowServiceGrpc;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * The training run behind the CLI's class-data sharing archive: {@code ./jimflow} runs it once per
 * build with {@code -XX:DumpLoadedClassList} and dumps the classes it loaded into a static archive,
 * so that later runs map the classes the common commands need instead of loading them one by one.
 * It runs those commands for real, against a stand-in frontend on a loopback port that keeps the
 * schedules created and answers what the commands ask; what it prints goes nowhere.
 */
public final class CliTraining {

  private static final String SCHEDULES =
      """
      scope: training
      schedules:
        - id: training
          name: Training
          trigger: {every: {minutes: 5}}
          steps:
            - {index: 0, name: Import, executable: {path: import.sh}}
      """;

  private CliTraining() {}

  public static void main(String[] args) throws Exception {
    CliLogging.quiet();
    HealthStatusManager health = new HealthStatusManager();
    health.setStatus(
        "temporal.api.workflowservice.v1.WorkflowService",
        io.grpc.health.v1.HealthCheckResponse.ServingStatus.SERVING);
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(new StandInFrontend())
            .addService(health.getHealthService())
            .build()
            .start();
    Path file = Files.createTempFile("jimflow-training", ".yaml");
    try {
      Files.writeString(file, SCHEDULES);
      String address = "--address=127.0.0.1:" + server.getPort();
      String[][] commands = {
        {"--help"},
        {"schedules", "--help"},
        {"schedules", "list", "--help"},
        {"schedules", "plan", "-f", file.toString(), address},
        {"schedules", "apply", "-f", file.toString(), address},
        {"schedules", "list", address},
        {"schedules", "list", "--json", address},
        {"executions", "list", address},
        {"schedules", "list", "--address=127.0.0.1:1"},
      };
      for (String[] command : commands) {
        CommandLine cli = JimflowCli.commandLine(io.jimflow.client.JimflowClient::connect, command);
        PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
        cli.setOut(nowhere).setErr(nowhere).execute(command);
      }
    } finally {
      Files.deleteIfExists(file);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Just enough of Temporal's frontend for the training commands: schedules kept in memory. */
  private static final class StandInFrontend extends WorkflowServiceGrpc.WorkflowServiceImplBase {

    private final Map<String, CreateScheduleRequest> schedules = new ConcurrentHashMap<>();

    @Override
    public void getSystemInfo(
        GetSystemInfoRequest request, StreamObserver<GetSystemInfoResponse> response) {
      reply(
          response,
          filled(GetSystemInfoResponse.newBuilder().setServerVersion("training").build()));
    }

    @Override
    public void describeNamespace(
        DescribeNamespaceRequest request, StreamObserver<DescribeNamespaceResponse> response) {
      reply(
          response,
          filled(
              DescribeNamespaceResponse.newBuilder()
                  .setNamespaceInfo(NamespaceInfo.newBuilder().setName(request.getNamespace()))
                  .build()));
    }

    @Override
    public void createSchedule(
        CreateScheduleRequest request, StreamObserver<CreateScheduleResponse> response) {
      schedules.put(request.getScheduleId(), request);
      reply(
          response,
          CreateScheduleResponse.newBuilder()
              .setConflictToken(ByteString.copyFromUtf8("1"))
              .build());
    }

    @Override
    public void listSchedules(
        ListSchedulesRequest request, StreamObserver<ListSchedulesResponse> response) {
      ListSchedulesResponse.Builder list = ListSchedulesResponse.newBuilder();
      schedules.values().stream()
          .map(
              s ->
                  ScheduleListEntry.newBuilder()
                      .setScheduleId(s.getScheduleId())
                      .setMemo(s.getMemo())
                      .setSearchAttributes(s.getSearchAttributes())
                      .setInfo(filled(ScheduleListInfo.getDefaultInstance())))
          .forEach(list::addSchedules);
      reply(response, list.build());
    }

    @Override
    public void describeSchedule(
        DescribeScheduleRequest request, StreamObserver<DescribeScheduleResponse> response) {
      CreateScheduleRequest created = schedules.get(request.getScheduleId());
      if (created == null) {
        response.onError(Status.NOT_FOUND.withDescription("schedule not found").asException());
        return;
      }
      reply(
          response,
          DescribeScheduleResponse.newBuilder()
              .setSchedule(created.getSchedule())
              .setMemo(created.getMemo())
              .setSearchAttributes(created.getSearchAttributes())
              .setSchedule(asDescribed(created.getSchedule()))
              .setInfo(lastRun())
              .setConflictToken(ByteString.copyFromUtf8("1"))
              .build());
    }

    @Override
    public void describeWorkflowExecution(
        DescribeWorkflowExecutionRequest request,
        StreamObserver<DescribeWorkflowExecutionResponse> response) {
      DescribeWorkflowExecutionResponse described =
          filled(DescribeWorkflowExecutionResponse.getDefaultInstance());
      reply(
          response,
          described.toBuilder()
              .setWorkflowExecutionInfo(
                  described.getWorkflowExecutionInfo().toBuilder()
                      .clearMemo()
                      .clearSearchAttributes()
                      .setExecution(request.getExecution()))
              .build());
    }

    @Override
    public void listWorkflowExecutions(
        ListWorkflowExecutionsRequest request,
        StreamObserver<ListWorkflowExecutionsResponse> response) {
      reply(response, ListWorkflowExecutionsResponse.getDefaultInstance());
    }

    /**
     * A schedule as the server describes it: its cron expressions as calendars (here one, 02:30
     * every day).
     */
    private static Schedule asDescribed(Schedule schedule) {
      Range hour = Range.newBuilder().setStart(2).setEnd(2).setStep(1).build();
      Range minute = Range.newBuilder().setStart(30).setEnd(30).setStep(1).build();
      return schedule.toBuilder()
          .setSpec(
              schedule.getSpec().toBuilder()
                  .addStructuredCalendar(
                      StructuredCalendarSpec.newBuilder().addHour(hour).addMinute(minute)))
          .build();
    }

    /** What a schedule that has run once carries: its last action and the next ones. */
    private static ScheduleInfo lastRun() {
      ScheduleInfo info = filled(ScheduleInfo.getDefaultInstance());
      return info.toBuilder()
          .setRecentActions(
              0,
              info.getRecentActions(0).toBuilder()
                  .setStartWorkflowResult(
                      WorkflowExecution.newBuilder().setWorkflowId("training/1").setRunId("1")))
          .build();
    }

    /**
     * The message with its message fields set, a few levels deep, as a real server's answers have
     * them: reading them then needs the same classes, which the archive then holds.
     */
    @SuppressWarnings("unchecked")
    private static <T extends Message> T filled(T message) {
      return (T) fill(message.toBuilder(), 3).build();
    }

    private static Message.Builder fill(Message.Builder message, int depth) {
      for (FieldDescriptor field : message.getDescriptorForType().getFields()) {
        if (depth == 0 || field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
          continue;
        }
        if (field.isRepeated() && message.getRepeatedFieldCount(field) == 0) {
          message.addRepeatedField(
              field, fill(message.newBuilderForField(field), depth - 1).build());
        } else if (!field.isRepeated() && !message.hasField(field)) {
          message.setField(field, fill(message.newBuilderForField(field), depth - 1).build());
        }
      }
      return message;
    }

    private static <T> void reply(StreamObserver<T> response, T message) {
      response.onNext(message);
      response.onCompleted();
    }
  }
}
