package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.common.TaskQueues;
import io.jimflow.schedule.ExecutionProgress;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.schedule.ScheduleExecutionWorkflow;
import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepDefinition.RetrySettings;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.StepStatus;
import io.jimflow.worker.dev.TemporalCli;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real worker decides what runs and keeps secrets out of Temporal: a forged execution naming a
 * program off its allow-list runs nothing, and a secret reference reaches the program while the
 * value shows neither in the history nor in the worker's log.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SecurityIT {

  private static final Initiator TESTER = new Initiator(InitiatorType.User, "e2e", "E2E test");
  private static final String PASSWORD = "correct-horse-battery-" + UUID.randomUUID();

  private static String namespace;
  private static WorkerProcess worker;
  private static Path root;
  private static Path marker;

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
    worker =
        env.startWorker(
            "security-worker",
            Map.of(
                "TEMPORAL_NAMESPACE",
                namespace,
                "JIMFLOW_SECRETS_DIR",
                secrets.toString(),
                "SPRING_APPLICATION_JSON",
                "{\"jimflow\":{\"steps\":{\"executables\":{\"root\":\""
                    + root
                    + "\",\"env-allow-list\":[\"DB_PASSWORD\"],"
                    + "\"allowed\":[{\"program\":\"login.sh\"}]}}}}"));
  }

  @Test
  void aForgedExecutionNamingAProgramOffTheAllowListRunsNothing(E2eEnvironment env) {
    ExecutionProgress result =
        run(
            env,
            "forged",
            step(0, "shell", "/bin/sh", List.of("-c", "touch '" + marker + "'"), Map.of()),
            step(0, "not listed", "touch.sh", List.of(), Map.of()));

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
            env,
            "secret",
            step(
                0, "login", "login.sh", List.of(), Map.of("DB_PASSWORD", "${secret:db-password}")));
    ExecutionProgress result = await(env, id);

    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    assertThat(result.steps().get(0).message()).isEqualTo("logged in with ***");
    String history = workflowShowJson(env, id);
    assertThat(history).contains("secret:db-password").doesNotContain(PASSWORD);
    assertThat(Files.readString(worker.log(), StandardCharsets.UTF_8)).doesNotContain(PASSWORD);
  }

  private static ExecutionProgress run(E2eEnvironment env, String name, StepDefinition... steps) {
    return await(env, start(env, name, steps));
  }

  private static String start(E2eEnvironment env, String name, StepDefinition... steps) {
    ScheduleDefinition definition =
        new ScheduleDefinition(name, name, null, true, null, null, null, null, List.of(steps));
    String id = name + "/" + UUID.randomUUID();
    WorkflowStub stub =
        env.client(namespace)
            .newUntypedWorkflowStub(
                ScheduleExecutionWorkflow.TYPE,
                WorkflowOptions.newBuilder()
                    .setWorkflowId(id)
                    .setTaskQueue(TaskQueues.SCHEDULES)
                    .build());
    stub.start(new ScheduleExecutionInput(definition, TESTER, TriggerKind.Manual, null));
    return id;
  }

  private static ExecutionProgress await(E2eEnvironment env, String id) {
    WorkflowClient client = env.client(namespace);
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

  /**
   * The history as {@code temporal workflow show -o json} prints it, without any codec, followed by
   * every payload's data decoded from base64: what anyone reading the history can see.
   */
  private static String workflowShowJson(E2eEnvironment env, String id) throws Exception {
    Path cli = TemporalCli.locate(TemporalCli.projectHome());
    Process process =
        new ProcessBuilder(
                cli.toString(),
                "workflow",
                "show",
                "--address",
                env.target(),
                "--namespace",
                namespace,
                "--workflow-id",
                id,
                "-o",
                "json")
            .redirectErrorStream(true)
            .start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    StringBuilder readable = new StringBuilder(output);
    Matcher data = Pattern.compile("\"data\":\\s*\"([A-Za-z0-9+/=]*)\"").matcher(output);
    while (data.find()) {
      readable
          .append('\n')
          .append(new String(Base64.getDecoder().decode(data.group(1)), StandardCharsets.UTF_8));
    }
    return readable.toString();
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
        null);
  }

  private static void script(String name, String body) throws IOException {
    Path file = root.resolve(name);
    Files.writeString(file, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
