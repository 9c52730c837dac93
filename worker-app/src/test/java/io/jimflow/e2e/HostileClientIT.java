package io.jimflow.e2e;

import static io.jimflow.e2e.ManualExecutions.TESTER;
import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import io.jimflow.client.MaintenanceClient;
import io.jimflow.client.WorkItemClient;
import io.jimflow.common.TaskQueues;
import io.jimflow.encryption.AesGcmPayloadCodec;
import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.encryption.PayloadKeyring;
import io.jimflow.exampledata.DataGenerationInput;
import io.jimflow.exampledata.DataGenerationWorkflow;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.maintenance.HistoryRetentionInput;
import io.jimflow.maintenance.HistoryRetentionResult;
import io.jimflow.maintenance.HistoryRetentionWorkflow;
import io.jimflow.maintenance.HousekeepingInput;
import io.jimflow.maintenance.HousekeepingWorkflow;
import io.jimflow.maintenance.MaintenanceActivities.MvoDeletionResult;
import io.jimflow.maintenance.RetentionPolicy;
import io.jimflow.resource.ResourceClaim;
import io.jimflow.resource.ResourceLockWorkflow;
import io.jimflow.resource.ResourceRelease;
import io.jimflow.resource.Resources;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.ExecutionSettings;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.Limits;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.workitem.WorkItemSpec;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.WorkItemView;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.common.v1.Payloads;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.common.converter.CodecDataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.payload.codec.PayloadCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 34's attacks, each tried against one real worker that has payload keys, a codec server
 * token, work item roots and step maxima, on the real dev server; each test asserts that nothing
 * happened beyond what the worker's configuration allows.
 *
 * <p>Two clients attack: {@link #plain}, a plain Temporal client without the keys (what anyone with
 * access to the frontend has: {@code temporal workflow start/signal}), whose every input and signal
 * the worker refuses unread; and {@link #keyed}, a client with the keys (a stolen key, or an
 * insider), to show that the worker's own bounds hold even for payloads it can read.
 * docs/security.md points at each test.
 */
@ExtendWith(TemporalDevServerExtension.class)
class HostileClientIT {

  private static final String KEYS = "hostile-1:" + randomKey();
  private static final String CODEC_TOKEN = "codec-" + UUID.randomUUID();
  private static final String HR = "HR System";

  /** Enough people that the import still holds HR when the forged releases have been judged. */
  private static final int PEOPLE = 30_000;

  private static String namespace;
  private static WorkerProcess worker;
  private static E2eEnvironment.TestStore store;
  private static Path home;
  private static Path roots;
  private static Path outside;
  private static WorkflowClient plain;
  private static WorkflowClient keyed;

  @BeforeAll
  static void startAWorkerWithKeysAndBounds(E2eEnvironment env) throws IOException {
    namespace = env.newNamespace("hostile");
    Path dir = env.newDirectory("hostile");
    home = Files.createDirectories(dir.resolve("home"));
    roots = Files.createDirectories(dir.resolve("work-items"));
    outside = Files.createDirectories(dir.resolve("outside"));
    Path steps = Files.createDirectories(dir.resolve("steps"));
    script(steps, "report.sh", "echo \"cpu limit $(ulimit -t)\"");
    script(steps, "hang.sh", "echo started\nsleep 600");
    script(steps, "fail.sh", "echo \"attempt $JIMFLOW_ATTEMPT fails\" >&2\nexit 3");
    store = E2eEnvironment.newStore();
    Map<String, String> settings = new java.util.HashMap<>(store.environment());
    settings.putAll(
        Map.ofEntries(
            Map.entry("TEMPORAL_NAMESPACE", namespace),
            Map.entry("JIMFLOW_PAYLOAD_ENCRYPTION_KEYS", KEYS),
            Map.entry("JIMFLOW_CODEC_SERVER_ENABLED", "true"),
            Map.entry("JIMFLOW_CODEC_SERVER_ACCESS_TOKEN", CODEC_TOKEN),
            Map.entry("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", home.toString()),
            Map.entry("JIMFLOW_WORK_ITEMS_DEMO_KINDS", "true"),
            Map.entry("JIMFLOW_WORK_ITEMS_ROOTS", roots.toString()),
            // Long enough for the forged release's import of 30,000 people (a RunProfile step is
            // held to it too), short enough for a hung program's step.
            Map.entry("JIMFLOW_STEPS_MAXIMA_TIMEOUT", "30s"),
            Map.entry("JIMFLOW_STEPS_MAXIMA_ATTEMPTS", "2"),
            Map.entry("JIMFLOW_STEPS_MAXIMA_CPU_SECONDS", "30"),
            Map.entry("JIMFLOW_STEPS_MAXIMA_PARALLEL_STEPS", "2"),
            Map.entry(
                "SPRING_APPLICATION_JSON",
                "{\"jimflow\":{\"steps\":{\"executables\":{\"root\":\""
                    + steps
                    + "\",\"allowed\":[{\"program\":\"report.sh\"},{\"program\":\"hang.sh\"},"
                    + "{\"program\":\"fail.sh\"}]}}}}")));
    worker = env.startWorker("hostile-worker", settings);
    plain = env.client(namespace);
    keyed = client(env, PayloadEncryption.of(null, KEYS).dataConverter());
  }

  // --- without the keys: nothing is read

  /**
   * Every forged start a plain client can make ends Failed at once, "not encrypted", without one
   * failed workflow task, and has done nothing.
   */
  @Test
  void withoutTheKeysEveryForgedStartFailsUnreadAndDoesNothing() throws Exception {
    Path written = outside.resolve("plain-" + UUID.randomUUID());
    Map<String, Object> forged =
        Map.of(
            ScheduleExecutionWorkflow.TYPE,
            ManualExecutions.input(
                aSchedule("plain").with(aStep(0, "report").executable("report.sh")).definition(),
                TESTER),
            DataGenerationWorkflow.TYPE,
            new DataGenerationInput(5, written.toString(), 1L, null),
            HistoryRetentionWorkflow.TYPE,
            new HistoryRetentionInput(
                null,
                new RetentionPolicy(Duration.ofDays(1), Duration.ofDays(1), Duration.ofDays(1)),
                null),
            HousekeepingWorkflow.TYPE,
            new HousekeepingInput(null, 10_000));
    for (Map.Entry<String, Object> attack : forged.entrySet()) {
      String queue =
          attack.getKey().equals(ScheduleExecutionWorkflow.TYPE)
              ? TaskQueues.SCHEDULES
              : TaskQueues.MAINTENANCE;
      WorkflowStub stub = untyped(plain, attack.getKey(), queue);
      stub.start(attack.getValue());

      // The failure is encrypted too: the attacker reads only its type, an operator the message.
      assertThatThrownBy(() -> stub.getResult(60, TimeUnit.SECONDS, Object.class))
          .as(attack.getKey())
          .isInstanceOf(WorkflowFailedException.class)
          .cause()
          .hasMessageContaining("UnreadablePayloadException");
      assertThatThrownBy(() -> operatorsView(stub).getResult(60, TimeUnit.SECONDS, Object.class))
          .as(attack.getKey())
          .isInstanceOf(WorkflowFailedException.class)
          .cause()
          .hasMessageContaining(
              "Workflow " + attack.getKey() + " refused its input: it is not encrypted");
      assertNoWorkflowTaskFailed(stub.getExecution().getWorkflowId());
    }
    assertThat(written).doesNotExist();
  }

  /** A start under a key the worker lacks, or with an altered tag, fails naming why, no loop. */
  @Test
  void aStartUnderAnUnknownKeyOrWithABadTagFailsTheExecutionNamingWhy(E2eEnvironment env)
      throws Exception {
    PayloadKeyring other = PayloadKeyring.parse("stolen-1:" + randomKey(), "test");
    PayloadKeyring workers = PayloadKeyring.parse(KEYS, "test");
    Map<String, WorkflowClient> attackers =
        Map.of(
            "key 'stolen-1'",
            client(env, PayloadEncryption.with(other).dataConverter()),
            "fails its integrity check",
            client(
                env,
                new CodecDataConverter(
                    DefaultDataConverter.newDefaultInstance(),
                    List.of(new Tampering(new AesGcmPayloadCodec(workers))))));
    for (Map.Entry<String, WorkflowClient> attacker : attackers.entrySet()) {
      WorkflowStub stub =
          untyped(attacker.getValue(), ScheduleExecutionWorkflow.TYPE, TaskQueues.SCHEDULES);
      stub.start(
          ManualExecutions.input(
              aSchedule("forged").with(aStep(0, "report").executable("report.sh")).definition(),
              TESTER));

      assertThatThrownBy(() -> operatorsView(stub).getResult(60, TimeUnit.SECONDS, Object.class))
          .isInstanceOf(WorkflowFailedException.class)
          .cause()
          .hasMessageContaining("Workflow ScheduleExecution could not read its input")
          .hasMessageContaining(attacker.getKey());
      assertNoWorkflowTaskFailed(stub.getExecution().getWorkflowId());
    }
  }

  // --- with the keys: the worker's bounds hold

  /** A line-count item whose resultPath lies outside every root ends in Error, nothing written. */
  @Test
  void aWorkItemNamingAFileOutsideEveryRootEndsInErrorAndWritesNothing() throws Exception {
    Path numbers = roots.resolve("numbers.txt");
    Files.writeString(numbers, "1\n2\n3\n");
    Path target = outside.resolve("step.sh");

    lineCountEndsInError(numbers, target, spec -> spec, "resultPath '" + target + "' is outside");

    assertThat(target).doesNotExist();
  }

  /**
   * A work item asking to run for a week on a worker whose maximum is a day ends in Error unrun.
   */
  @Test
  void aWorkItemAskingToRunLongerThanTheWorkerAllowsEndsInErrorWithoutRunning() throws Exception {
    Path numbers = roots.resolve("week.txt");
    Files.writeString(numbers, "1\n2\n3\n");
    Path result = roots.resolve("week-" + UUID.randomUUID() + ".jsonl");

    lineCountEndsInError(
        numbers,
        result,
        spec -> spec.withRunTimes(Duration.ofMinutes(1), Duration.ofDays(7), Duration.ofMinutes(1)),
        "maxRunTime + gracePeriod 7d1m is above this worker's maximum run time 1d");

    // WorkItemFinished(Error) reports the state the item was given: not a line was read.
    assertThat(Files.readAllLines(result))
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .contains("\"finalState\":\"Error\"", "\"lines\":0", "\"bytes\":0"));
  }

  /** Example data generation into a file outside the data directory fails and writes nothing. */
  @Test
  void exampleDataOutsideTheDataDirectoryFailsAndWritesNothing() {
    Path csv = outside.resolve("hr-" + UUID.randomUUID() + ".csv");
    MaintenanceClient maintenance = new MaintenanceClient(keyed);

    String id = maintenance.startDataGeneration(5, csv.toString(), 1L, null);

    assertThatThrownBy(() -> maintenance.awaitDataGeneration(id))
        .hasMessageContaining("outFile '" + csv + "' is outside the data directory");
    assertThat(csv).doesNotExist();
  }

  /**
   * A forged execution asking for a week per attempt, no CPU limit above the worker's and a
   * thousand attempts runs each attempt at most the worker's 30 s with its CPU maximum, and at most
   * its 2 attempts; each step's message says what was clamped.
   */
  @Test
  void aForgedExecutionsTimeoutsLimitsAndAttemptsAreClampedVisibly() throws Exception {
    Duration week = Duration.ofDays(7);
    ScheduleDefinition greedy =
        carryingOn(
            "greedy",
            List.of(
                executable("limits", "report.sh", week, 1, new Limits(100_000L, null, null)),
                executable("hangs", "hang.sh", week, 1, null),
                executable("retries", "fail.sh", week, 1000, null)));

    String id = "greedy/" + UUID.randomUUID();
    ManualExecutions.start(keyed, id, greedy, TESTER);
    ExecutionProgress progress = await(id);

    StepOutcome limits = progress.steps().get(0);
    assertThat(limits.status()).isEqualTo(StepStatus.Complete);
    assertThat(limits.message())
        .startsWith("cpu limit 30")
        .contains("timeout 7d clamped to the worker's maximum 30s")
        .contains("cpuSeconds 100000 clamped to the worker's maximum 30");
    StepOutcome hangs = progress.steps().get(1);
    assertThat(hangs.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(hangs.message())
        .contains("ran longer than PT30S and was killed")
        .contains("timeout 7d clamped to the worker's maximum 30s");
    StepOutcome retries = progress.steps().get(2);
    assertThat(retries.status()).isEqualTo(StepStatus.FailedWithError);
    assertThat(retries.message())
        .contains("Step 'retries' refused attempt 3: this worker runs a step at most 2 times");
  }

  /**
   * A forged execution asking for a million steps at once runs at most the worker's 2 of its group
   * at once (as the execution's own step times show), and completes.
   */
  @Test
  void aForgedExecutionRunsAtMostTheWorkersParallelStepsAtOnce() {
    List<StepDefinition> wide =
        IntStream.range(0, 6)
            .mapToObj(i -> executable("wide-" + i, "report.sh", Duration.ofSeconds(20), 1, null))
            .toList();
    ScheduleDefinition definition = carryingOn("wide", wide);
    String id = "wide/" + UUID.randomUUID();

    ScheduleExecutionWorkflow execution = ManualExecutions.newExecution(keyed, id);
    WorkflowClient.start(
        execution::run,
        new ScheduleExecutionInput(
            definition, TESTER, TriggerKind.Manual, new ExecutionSettings(1_000_000)));
    ExecutionProgress progress = await(id);

    assertThat(progress.steps()).hasSize(6).allMatch(s -> s.status() == StepStatus.Complete);
    assertThat(mostAtOnce(progress.steps())).isEqualTo(2);
  }

  /** A work item asking for more restarts, or a longer retry delay, than the worker allows. */
  @Test
  void aWorkItemAskingForMoreRestartsOrALongerRetryDelayEndsInErrorWithoutRunning()
      throws Exception {
    Path numbers = roots.resolve("restarts.txt");
    Files.writeString(numbers, "1\n2\n");

    lineCountEndsInError(
        numbers,
        roots.resolve("restarts-" + UUID.randomUUID() + ".jsonl"),
        spec -> spec.withRestarts(1_000_000, Duration.ofMillis(1)),
        "maxRestarts 1000000 is above this worker's maximum 100");
    lineCountEndsInError(
        numbers,
        roots.resolve("delay-" + UUID.randomUUID() + ".jsonl"),
        spec -> spec.withRestarts(1, Duration.ofDays(3650)),
        "retryDelay 3650d is above this worker's maximum 1d");
  }

  /**
   * A forged retention run of one day keeps what the worker's 90 days keep (a run ended 10 days ago
   * stays), and says so in its result and run record.
   */
  @Test
  void aForgedOneDayRetentionPurgesNothingTheWorkersPeriodKeeps() throws Exception {
    String tenDaysOld = UUID.randomUUID().toString();
    OffsetDateTime then = OffsetDateTime.now(ZoneOffset.UTC).minusDays(10);
    try (Connection c = store.connect();
        PreparedStatement insert =
            c.prepareStatement(
                "insert into maintenance_run (id, kind, status, totals, created_at, updated_at,"
                    + " ended_at) values (?, 'Housekeeping', 'Complete', '{}', ?, ?, ?)")) {
      insert.setString(1, tenDaysOld);
      insert.setObject(2, then);
      insert.setObject(3, then);
      insert.setObject(4, then);
      insert.executeUpdate();
    }
    Duration day = Duration.ofDays(1);

    HistoryRetentionResult result =
        keyed
            .newWorkflowStub(
                HistoryRetentionWorkflow.class, options(TaskQueues.MAINTENANCE, "retention"))
            .run(new HistoryRetentionInput(null, new RetentionPolicy(day, day, day), 50_000));

    assertThat(result.notes())
        .contains(
            "csoChanges retention 1d raised to the worker's minimum 90d; batch size 50000"
                + " clamped to the worker's maximum 1000",
            "runRecords retention 1d raised to the worker's minimum 90d; batch size 50000"
                + " clamped to the worker's maximum 1000");
    assertThat(maintenanceRunMessage(result.runRecordId()))
        .contains("runRecords retention 1d raised to the worker's minimum 90d");
    assertThat(maintenanceRunMessage(tenDaysOld)).as("the 10-day-old run is kept").isNotNull();
  }

  /** A forged housekeeping cap above the worker's is clamped to it, and the result says so. */
  @Test
  void aForgedHousekeepingCapIsClampedToTheWorkers() {
    MvoDeletionResult result =
        keyed
            .newWorkflowStub(
                HousekeepingWorkflow.class, options(TaskQueues.MAINTENANCE, "housekeeping"))
            .run(new HousekeepingInput(null, 10_000));

    assertThat(result.note()).isEqualTo("MVOs per cycle 10000 clamped to the worker's maximum 50");
  }

  /**
   * While an import holds HR, a release signal for its own claim, sent without the keys (dropped
   * unread) and with them from another run (the lock asks the holder, which still claims), changes
   * nothing; the import completes.
   */
  @Test
  void aForgedReleaseOfAHeldLockChangesNothing() throws Exception {
    Path hr = home.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer out = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(3).write(PEOPLE, out, n -> {});
    }
    String importId = "hostile-import/" + UUID.randomUUID();
    ScheduleExecutionWorkflow importing =
        ManualExecutions.start(
            keyed,
            importId,
            aSchedule("hostile-import")
                .with(
                    aStep(0, "HR System - Full Import")
                        .withStepDefaults()
                        .runProfile(HR, "Full Import")
                        .timeout(Duration.ofMinutes(20)))
                .definition(),
            TESTER);
    ResourceLockWorkflow lock =
        keyed.newWorkflowStub(ResourceLockWorkflow.class, Resources.lockWorkflowId(HR));
    ResourceClaim holder = LockWatch.awaitHolder(lock, importId);

    ResourceRelease forged = new ResourceRelease(holder.claimId());
    plain
        .newUntypedWorkflowStub(Resources.lockWorkflowId(HR))
        .signal(ResourceLockWorkflow.RELEASE, forged);
    keyed
        .newUntypedWorkflowStub(Resources.lockWorkflowId(HR))
        .signal(ResourceLockWorkflow.RELEASE, forged);
    LockWatch.awaitStillClaimsAnswered(keyed, Resources.lockWorkflowId(HR));

    assertThat(WorkflowStub.fromTyped(importing).describe().getStatus())
        .as("the import still runs, so the release was judged while it held HR")
        .isEqualTo(WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING);
    assertThat(lock.state().holder()).isEqualTo(holder);
    assertThat(
            WorkflowStub.fromTyped(importing)
                .getResult(10, TimeUnit.MINUTES, ExecutionResult.class)
                .status())
        .isEqualTo(ExecutionStatus.Complete);
    assertNoWorkflowTaskFailed(Resources.lockWorkflowId(HR));
  }

  /** The codec server decrypts only for callers with its token and an allowed host name. */
  @Test
  void theCodecServerDecryptsNothingWithoutItsTokenOrForAnotherHostName() throws Exception {
    Payload secret =
        PayloadEncryption.of(null, KEYS).dataConverter().toPayload("payroll-secret").orElseThrow();
    String body = JsonFormat.printer().print(Payloads.newBuilder().addPayloads(secret).build());
    String token = "Bearer " + CODEC_TOKEN;

    Response withoutToken = decode(body, "127.0.0.1", null);
    Response wrongToken = decode(body, "127.0.0.1", "Bearer guessed");
    Response rebound = decode(body, "evil.example", token);
    Response withToken = decode(body, "127.0.0.1", token);

    String plainJson =
        Base64.getEncoder().encodeToString("\"payroll-secret\"".getBytes(StandardCharsets.UTF_8));
    assertThat(withoutToken.status()).isEqualTo(401);
    assertThat(wrongToken.status()).isEqualTo(401);
    assertThat(rebound.status()).as("DNS rebinding: another host name").isEqualTo(403);
    assertThat(List.of(withoutToken, wrongToken, rebound))
        .allSatisfy(r -> assertThat(r.text()).doesNotContain(plainJson));
    assertThat(withToken.status()).as("the operator's CLI still decodes").isEqualTo(200);
    assertThat(withToken.text()).contains(plainJson);
  }

  // --- helpers

  /**
   * Schedules a line-count item (no restarts) as {@code change} makes it, and asserts it ends in
   * Error with a note containing {@code why}.
   */
  private static void lineCountEndsInError(
      Path numbers, Path resultPath, UnaryOperator<WorkItemSpec> change, String why)
      throws Exception {
    String guid = UUID.randomUUID().toString();
    new WorkItemClient(keyed)
        .schedule(
            change.apply(
                WorkItemSpec.of(
                        guid,
                        "line-count",
                        "{\"path\":\"" + numbers + "\",\"resultPath\":\"" + resultPath + "\"}",
                        Instant.now())
                    .withRestarts(0, Duration.ofSeconds(1))));
    WorkItemView end =
        keyed.newUntypedWorkflowStub(guid).getResult(60, TimeUnit.SECONDS, WorkItemView.class);

    assertThat(end.state()).isEqualTo(WorkItemState.Error);
    assertThat(end.log())
        .anyMatch(t -> t.to() == WorkItemState.Error && t.note() != null && t.note().contains(why));
  }

  private record Response(int status, String text) {}

  /**
   * POSTs {@code body} to the worker's {@code /codec/decode} over a plain socket, addressed as
   * {@code host} (a name of the attacker's choosing, as a rebinding page would send).
   */
  private static Response decode(String body, String host, String authorization)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", worker.httpPort())) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      String head =
          "POST /codec/decode HTTP/1.1\r\nHost: "
              + host
              + ":"
              + worker.httpPort()
              + "\r\nContent-Type: application/json\r\nContent-Length: "
              + bytes.length
              + "\r\nConnection: close\r\n"
              + (authorization == null ? "" : "Authorization: " + authorization + "\r\n")
              + "\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return new Response(Integer.parseInt(response.split(" ", 3)[1]), response);
    }
  }

  private static StepDefinition executable(
      String name, String path, Duration timeout, int attempts, Limits limits) {
    return new StepDefinition(
        0,
        name,
        null,
        new ExecutableStep(path, List.of(), null, Map.of(), limits),
        true,
        timeout,
        new RetrySettings(attempts, Duration.ofMillis(200), 1.0),
        Duration.ofSeconds(30),
        null,
        null);
  }

  /** A schedule {@code id} of {@code steps} that goes on past a failed step. */
  private static ScheduleDefinition carryingOn(String id, List<StepDefinition> steps) {
    return new ScheduleDefinition(
        id, id, null, true, null, ScheduleDefinition.FailurePolicy.CONTINUE, null, null, steps);
  }

  /** The most steps whose [start, end) spans overlap at one time. */
  private static int mostAtOnce(List<StepOutcome> steps) {
    int most = 0;
    for (StepOutcome step : steps) {
      Instant t = step.startedAt();
      int atOnce =
          (int)
              steps.stream()
                  .filter(s -> !s.startedAt().isAfter(t) && s.endedAt().isAfter(t))
                  .count();
      most = Math.max(most, atOnce);
    }
    return most;
  }

  private static ExecutionProgress await(String id) {
    WorkflowStub stub = keyed.newUntypedWorkflowStub(id, Optional.empty(), Optional.empty());
    try {
      stub.getResult(120, TimeUnit.SECONDS, Object.class);
    } catch (WorkflowFailedException failed) {
      // A failed execution still answers its progress query.
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("execution " + id + " did not end within 120 s", e);
    }
    return stub.query("progress", ExecutionProgress.class);
  }

  private static String maintenanceRunMessage(String id) throws Exception {
    try (Connection c = store.connect();
        PreparedStatement select =
            c.prepareStatement("select coalesce(message, '') from maintenance_run where id = ?")) {
      select.setString(1, id);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? row.getString(1) : null;
      }
    }
  }

  private static WorkflowOptions options(String queue, String name) {
    return WorkflowOptions.newBuilder()
        .setTaskQueue(queue)
        .setWorkflowId("hostile-" + name + "-" + UUID.randomUUID())
        .build();
  }

  /** The execution as an operator's client, with the keys, reads it. */
  private static WorkflowStub operatorsView(WorkflowStub stub) {
    return keyed.newUntypedWorkflowStub(
        stub.getExecution().getWorkflowId(), Optional.empty(), Optional.empty());
  }

  private static WorkflowStub untyped(WorkflowClient client, String type, String queue) {
    return client.newUntypedWorkflowStub(type, options(queue, type));
  }

  private static void assertNoWorkflowTaskFailed(String workflowId) {
    assertThat(
            keyed.fetchHistory(workflowId).getEvents().stream()
                .filter(e -> e.getEventType() == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
                .toList())
        .as("no workflow task of %s failed", workflowId)
        .isEmpty();
  }

  private static WorkflowClient client(
      E2eEnvironment env, io.temporal.common.converter.DataConverter converter) {
    return WorkflowClient.newInstance(
        env.stubs(),
        WorkflowClientOptions.newBuilder()
            .setNamespace(namespace)
            .setDataConverter(converter)
            .build());
  }

  /** Encrypts under the workers' key, then flips a bit of the ciphertext (its tag fails). */
  private record Tampering(AesGcmPayloadCodec codec) implements PayloadCodec {
    @Override
    public List<Payload> encode(List<Payload> payloads) {
      return codec.encode(payloads).stream()
          .map(
              p -> {
                byte[] data = p.getData().toByteArray();
                data[data.length - 1] ^= 1;
                return p.toBuilder().setData(ByteString.copyFrom(data)).build();
              })
          .toList();
    }

    @Override
    public List<Payload> decode(List<Payload> payloads) {
      return codec.decode(payloads);
    }
  }

  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private static void script(Path root, String name, String body) throws IOException {
    Path file = root.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
