package io.jimflow.e2e;

import static io.jimflow.e2e.ManualExecutions.TESTER;
import static java.net.http.HttpResponse.BodyHandlers.ofString;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.client.JimflowClient;
import io.jimflow.common.TaskQueues;
import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.client.WorkflowFailedException;
import io.temporal.client.WorkflowStub;
import io.temporal.common.converter.DefaultDataConverter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real worker with payload encryption on decides what runs and keeps secrets and data out of
 * Temporal: a forged execution naming a program off its allow-list runs nothing, a secret reference
 * reaches the program while the value shows neither in the history nor in the worker's log, and the
 * history read without the codec holds no schedule name, argument or output, while the CLI reads
 * them through the worker's codec server.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SecurityIT {

  private static final String PASSWORD = "correct-horse-battery-" + UUID.randomUUID();
  private static final String KEYS = "e2e-1:" + randomKey();

  /** What the workers and an operator's CLI share: the payload keys. */
  private static final PayloadEncryption ENCRYPTION = PayloadEncryption.of(null, KEYS);

  private static String namespace;
  private static WorkerProcess worker;
  private static Path root;
  private static Path marker;
  private static Path pids;

  @BeforeAll
  static void startARestrictedWorker(E2eEnvironment env) throws IOException {
    namespace = env.newNamespace("security");
    Path dir = env.newDirectory("security");
    root = Files.createDirectories(dir.resolve("steps"));
    marker = dir.resolve("a-program-ran");
    Path secrets = Files.createDirectories(dir.resolve("secrets"));
    Files.writeString(secrets.resolve("db-password"), PASSWORD + "\n");
    script(
        "login.sh",
        "[ \"$DB_PASSWORD\" = \""
            + PASSWORD
            + "\" ] || { echo 'wrong password' >&2; exit 4; }\n"
            + "echo \"logged in with $DB_PASSWORD\"");
    script("touch.sh", "touch '" + marker + "'");
    script("report.sh", "echo \"exported $# entries: $*\"");
    pids = dir.resolve("daemon-pids");
    // Double fork into a new session: the sleeper's parent exits, it is nobody's child.
    script(
        "daemon.sh",
        "( setsid sh -c 'sleep 600 & echo $! >> \""
            + pids
            + "\"' & )\necho $$ >> \""
            + pids
            + "\"\nsleep 600");
    worker =
        env.startWorker(
            "security-worker",
            Map.of(
                "TEMPORAL_NAMESPACE",
                namespace,
                "JIMFLOW_SECRETS_DIR",
                secrets.toString(),
                "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS",
                KEYS,
                "JIMFLOW_CODEC_SERVER_ENABLED",
                "true",
                "SPRING_APPLICATION_JSON",
                "{\"jimflow\":{\"steps\":{\"executables\":{\"root\":\""
                    + root
                    + "\",\"env-allow-list\":[\"DB_PASSWORD\"],"
                    + "\"allowed\":[{\"program\":\"login.sh\"},{\"program\":\"report.sh\"},"
                    + "{\"program\":\"daemon.sh\"}]}}}}"));
  }

  /**
   * Started with `temporal workflow start`, without the keys: the input is plain JSON, which a
   * worker with payload keys refuses before anything runs.
   */
  @Test
  void aForgedExecutionWithoutTheKeysFailsUnreadAndRunsNothing(E2eEnvironment env)
      throws Exception {
    ScheduleDefinition forged =
        definition(
            "forged",
            step(0, "shell", "/bin/sh", List.of("-c", "touch '" + marker + "'"), Map.of()));
    String input =
        DefaultDataConverter.STANDARD_INSTANCE
            .toPayload(new ScheduleExecutionInput(forged, TESTER, TriggerKind.Manual, null))
            .orElseThrow()
            .getData()
            .toStringUtf8();
    String id = "forged/" + UUID.randomUUID();
    temporal(
        env,
        "workflow",
        "start",
        "--type",
        ScheduleExecutionWorkflow.TYPE,
        "--task-queue",
        TaskQueues.SCHEDULES,
        "--workflow-id",
        id,
        "--input",
        input);

    WorkflowStub stub = client(env).newUntypedWorkflowStub(id, Optional.empty(), Optional.empty());
    assertThatThrownBy(() -> stub.getResult(120, TimeUnit.SECONDS, Object.class))
        .isInstanceOf(WorkflowFailedException.class)
        .cause()
        .hasMessageContaining("Workflow ScheduleExecution refused its input: it is not encrypted");
    assertThat(marker).doesNotExist();
  }

  /** Even with the keys (an operator's client), a forged definition runs nothing off the list. */
  @Test
  void aForgedExecutionNamingAProgramOffTheAllowListRunsNothing(E2eEnvironment env) {
    String id =
        start(
            client(env),
            "forged-with-keys",
            step(0, "shell", "/bin/sh", List.of("-c", "touch '" + marker + "'"), Map.of()),
            step(0, "not listed", "touch.sh", List.of(), Map.of()));
    ExecutionProgress result = await(env, id);

    assertThat(result.steps())
        .allSatisfy(
            outcome -> {
              assertThat(outcome.status()).isEqualTo(StepStatus.FailedWithError);
              assertThat(outcome.attempts()).isEqualTo(1);
            })
        .extracting(StepOutcome::message)
        .anySatisfy(m -> assertThat(m).contains("program not allowed: /bin/sh"))
        .anySatisfy(m -> assertThat(m).contains("program not allowed: touch.sh"));
    assertThat(marker).doesNotExist();
  }

  @Test
  void aSecretReachesTheProgramButNeitherTheHistoryNorTheWorkerLog(E2eEnvironment env)
      throws Exception {
    String id =
        start(
            client(env),
            "secret",
            step(
                0, "login", "login.sh", List.of(), Map.of("DB_PASSWORD", "${secret:db-password}")));
    ExecutionProgress result = await(env, id);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(result.steps().get(0).message()).isEqualTo("logged in with ***");
    assertThat(workflowShowJson(env, id)).doesNotContain(PASSWORD);
    assertThat(workflowShowJson(env, id, "--codec-endpoint", codecEndpoint()))
        .contains("secret:db-password")
        .doesNotContain(PASSWORD);
    assertThat(Files.readString(worker.log(), StandardCharsets.UTF_8)).doesNotContain(PASSWORD);
  }

  @Test
  void theHistoryHoldsNoScheduleNameArgumentOrOutputThatTheCodecServerDoesNotGiveBack(
      E2eEnvironment env) throws Exception {
    String argument = "ou=payroll-" + UUID.randomUUID();
    JimflowClient jimflow = new JimflowClient(client(env), null);
    ScheduleDefinition definition =
        new ScheduleDefinition(
            "payroll-export",
            "Payroll Export To Directory",
            null,
            true,
            null,
            null,
            null,
            null,
            List.of(step(0, "report", "report.sh", List.of("--target", argument), Map.of())));
    String id = jimflow.executions().start(definition, TESTER, false);
    ExecutionProgress result = await(env, id);
    assertThat(result.steps().get(0).message())
        .isEqualTo("exported 2 entries: --target " + argument);

    assertThat(workflowShowJson(env, id))
        .contains("\"encryption-key-id\"")
        .doesNotContain(argument, "Payroll Export To Directory", "exported 2 entries");
    assertThat(workflowShowJson(env, id, "--codec-endpoint", codecEndpoint()))
        .contains(argument, "Payroll Export To Directory", "exported 2 entries");
  }

  @Test
  void aCancelledStepWhoseProgramDoubleForkedASleeperLeavesNoProcessBehind(E2eEnvironment env)
      throws Exception {
    String id = start(client(env), "daemon", step(0, "daemon", "daemon.sh", List.of(), Map.of()));
    List<Long> started = awaitPids(2);

    client(env).newUntypedWorkflowStub(id).cancel();
    ExecutionProgress result = await(env, id);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Cancelled);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (started.stream().anyMatch(SecurityIT::alive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(started)
        .as("the program and its double-forked sleep 600")
        .noneMatch(SecurityIT::alive);
  }

  private static List<Long> awaitPids(int count) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      List<String> lines = Files.exists(pids) ? Files.readAllLines(pids) : List.of();
      if (lines.size() >= count) {
        return lines.stream().map(String::strip).map(Long::parseLong).toList();
      }
      Thread.sleep(100);
    }
    throw new AssertionError("daemon.sh did not start its processes within 60 s");
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @Test
  void theCodecServerLetsOnlyTheUisOriginCallItFromABrowser() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> fromTheUi = http.send(preflight("http://localhost:8233"), ofString());
    HttpResponse<String> fromElsewhere = http.send(preflight("https://evil.example"), ofString());

    assertThat(fromTheUi.statusCode()).isEqualTo(200);
    assertThat(fromTheUi.headers().firstValue("Access-Control-Allow-Origin"))
        .contains("http://localhost:8233");
    assertThat(fromTheUi.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
        .containsIgnoringCase("x-namespace");
    assertThat(fromElsewhere.statusCode()).isEqualTo(403);
    assertThat(fromElsewhere.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
  }

  private static HttpRequest preflight(String origin) {
    return HttpRequest.newBuilder(URI.create(codecEndpoint() + "/decode"))
        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type,x-namespace")
        .build();
  }

  private static String codecEndpoint() {
    return "http://127.0.0.1:" + worker.httpPort() + "/codec";
  }

  /** A client of the test's namespace with the workers' payload keys. */
  private static WorkflowClient client(E2eEnvironment env) {
    return WorkflowClient.newInstance(
        env.stubs(),
        WorkflowClientOptions.newBuilder()
            .setNamespace(namespace)
            .setDataConverter(ENCRYPTION.dataConverter())
            .build());
  }

  private static ScheduleDefinition definition(String name, StepDefinition... steps) {
    return new ScheduleDefinition(name, name, null, true, null, null, null, null, List.of(steps));
  }

  private static String start(WorkflowClient client, String name, StepDefinition... steps) {
    ScheduleDefinition definition = definition(name, steps);
    String id = name + "/" + UUID.randomUUID();
    ManualExecutions.start(client, id, definition, TESTER);
    return id;
  }

  private static ExecutionProgress await(E2eEnvironment env, String id) {
    WorkflowClient client = client(env);
    WorkflowStub stub = client.newUntypedWorkflowStub(id, Optional.empty(), Optional.empty());
    try {
      stub.getResult(120, TimeUnit.SECONDS, Object.class);
    } catch (RuntimeException failed) {
      // A failed execution still answers its progress query.
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("execution " + id + " did not end within 120 s", e);
    }
    return stub.query("progress", ExecutionProgress.class);
  }

  /** The history as {@code temporal workflow show -o json} prints it, with payloads decoded. */
  private static String workflowShowJson(E2eEnvironment env, String id, String... flags)
      throws Exception {
    return TemporalHistories.showJson(env.target(), namespace, id, flags);
  }

  /** Runs the Temporal CLI against the test's namespace; returns its output. */
  private static String temporal(E2eEnvironment env, String... args) throws Exception {
    return TemporalHistories.temporal(env.target(), namespace, args);
  }

  private static StepDefinition step(
      int index, String name, String path, List<String> args, Map<String, String> env) {
    return new StepDefinition(
        index,
        name,
        null,
        new ExecutableStep(path, args, null, env),
        true,
        null,
        new RetrySettings(3, null, null),
        null,
        null,
        null);
  }

  private static String randomKey() {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private static void script(String name, String body) throws IOException {
    Path file = root.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
