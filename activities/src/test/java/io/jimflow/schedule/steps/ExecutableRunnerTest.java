package io.jimflow.schedule.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jimflow.schedule.StepDefinition;
import io.jimflow.schedule.StepDefinition.ExecutableStep;
import io.jimflow.schedule.StepFailures;
import io.jimflow.secrets.activities.Secrets;
import io.jimflow.secrets.activities.WorkerSecrets;
import io.temporal.client.ActivityCanceledException;
import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutableRunnerTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private Path root;
  private ExecutableRunner runner;

  @BeforeEach
  void createRoot() throws Exception {
    root = Files.createDirectories(dir.resolve("steps"));
    runner =
        new ExecutableRunner(
            root,
            ProgramAllowList.anyBelowRoot(),
            Set.of("ALLOWED", "STEP_VAR"),
            400,
            Map.of("PATH", System.getenv("PATH"), "SECRET", "hunter2", "ALLOWED", "from-worker"),
            Secrets.none(),
            Containment.detect());
  }

  @Test
  void aProgramThatExitsZeroReturnsItsOutput() {
    Scripts.write(root, "hello.sh", "echo hello; echo oops >&2");

    ExecutableRunner.Finished finished =
        runner.run(step("hello.sh"), Map.of(), new RecordingProgress(null), TIMEOUT);

    assertThat(finished.exitCode()).isZero();
    assertThat(finished.output()).contains("hello").contains("stderr: oops");
  }

  @Test
  void aProgramsExitCodeIsReported() {
    Scripts.write(root, "fail.sh", "echo 'cannot reach target' >&2; exit 3");

    ExecutableRunner.Finished finished =
        runner.run(step("fail.sh"), Map.of(), new RecordingProgress(null), TIMEOUT);

    assertThat(finished.exitCode()).isEqualTo(3);
    assertThat(finished.output()).contains("cannot reach target");
  }

  @Test
  void longOutputIsTruncatedToItsTail() {
    Scripts.write(
        root, "chatty.sh", "i=0; while [ $i -lt 500 ]; do echo \"line $i\"; i=$((i+1)); done");

    ExecutableRunner.Finished finished =
        runner.run(step("chatty.sh"), Map.of(), new RecordingProgress(null), TIMEOUT);

    assertThat(finished.output())
        .contains("characters of output truncated")
        .contains("line 499")
        .doesNotContain("line 0\n");
    assertThat(finished.output().length()).isLessThan(500);
  }

  @Test
  void argumentsReachTheProgramLiterallyWithoutAShell() {
    Scripts.write(root, "args.sh", "for a in \"$@\"; do echo \"[$a]\"; done");

    ExecutableRunner.Finished finished =
        runner.run(
            new ExecutableStep("args.sh", List.of("$HOME", "a b", "; rm -rf /"), null, null),
            Map.of(),
            new RecordingProgress(null),
            TIMEOUT);

    assertThat(finished.output()).isEqualTo("[$HOME]\n[a b]\n[; rm -rf /]");
  }

  @Test
  void aPathOutsideTheRootIsRejected() throws Exception {
    Scripts.write(dir, "outside.sh", "echo escaped");

    assertConfigurationError(() -> run("../outside.sh"), "leaves the executables root");
    assertConfigurationError(() -> run(dir.resolve("outside.sh").toString()), "must be relative");
    Files.createSymbolicLink(root.resolve("link.sh"), dir.resolve("outside.sh"));
    assertConfigurationError(() -> run("link.sh"), "leads outside the executables root");
    assertConfigurationError(() -> run("missing.sh"), "does not exist");
  }

  @Test
  void aWorkingDirectoryMustLieInsideTheRoot() throws Exception {
    Scripts.write(root, "pwd.sh", "pwd");
    Files.createDirectories(root.resolve("work"));

    ExecutableRunner.Finished inside =
        runner.run(
            new ExecutableStep("pwd.sh", null, "work", null),
            Map.of(),
            new RecordingProgress(null),
            TIMEOUT);
    assertThat(inside.output()).isEqualTo(root.resolve("work").toRealPath().toString());

    assertConfigurationError(
        () ->
            runner.run(
                new ExecutableStep("pwd.sh", null, "..", null),
                Map.of(),
                new RecordingProgress(null),
                TIMEOUT),
        "leaves the executables root");
  }

  @Test
  void theProgramSeesOnlyBaseAndAllowListedVariables() {
    Scripts.write(root, "env.sh", "env | sort");

    ExecutableRunner.Finished finished =
        runner.run(
            new ExecutableStep("env.sh", null, null, Map.of("STEP_VAR", "from-step")),
            Map.of("JIMFLOW_STEP_NAME", "export"),
            new RecordingProgress(null),
            TIMEOUT);

    // Values passed through the allow-list are masked like secrets.
    assertThat(finished.output())
        .contains("ALLOWED=***")
        .contains("STEP_VAR=***")
        .contains("JIMFLOW_STEP_NAME=export")
        .contains("PATH=")
        .doesNotContain("SECRET")
        .doesNotContain("hunter2");
    assertConfigurationError(
        () ->
            runner.run(
                new ExecutableStep("env.sh", null, null, Map.of("SECRET", "x")),
                Map.of(),
                new RecordingProgress(null),
                TIMEOUT),
        "env sets [SECRET], not on the worker's allow-list");
  }

  @Test
  void progressAndCheckpointLinesBecomeHeartbeatsNotOutput() {
    Scripts.write(
        root,
        "report.sh",
        "echo start; echo '::progress 2/5'; echo '::checkpoint row-17'; echo end");
    RecordingProgress progress = new RecordingProgress(null);

    ExecutableRunner.Finished finished = runner.run(step("report.sh"), Map.of(), progress, TIMEOUT);

    assertThat(finished.output()).isEqualTo("start\nend");
    assertThat(finished.processed()).isEqualTo(2);
    assertThat(finished.total()).isEqualTo(5);
    assertThat(progress.reports).last().isEqualTo(new RecordingProgress.Report(2, 5, "row-17"));
  }

  @Test
  void aRetriedAttemptReceivesTheLastCheckpoint() {
    Scripts.write(root, "resume.sh", "echo \"resuming at ${JIMFLOW_CHECKPOINT:-start}\"");

    assertThat(
            runner
                .run(step("resume.sh"), Map.of(), new RecordingProgress("row-17"), TIMEOUT)
                .output())
        .isEqualTo("resuming at row-17");
    assertThat(
            runner.run(step("resume.sh"), Map.of(), new RecordingProgress(null), TIMEOUT).output())
        .isEqualTo("resuming at start");
  }

  @Test
  void cancellingKillsTheWholeProcessTree() throws Exception {
    Path pids = dir.resolve("pids");
    Scripts.write(
        root, "tree.sh", "sleep 120 & echo $! > " + pids + "; echo $$ >> " + pids + "; wait");
    RecordingProgress progress = new RecordingProgress(null).cancelAfter(3);

    assertThatThrownBy(() -> runner.run(step("tree.sh"), Map.of(), progress, TIMEOUT))
        .isInstanceOf(ActivityCanceledException.class);

    assertAllDead(pids);
  }

  @Test
  void aProgramRunningPastTheTimeoutIsKilledWithItsChildren() throws Exception {
    Path pids = dir.resolve("pids");
    Scripts.write(
        root, "hang.sh", "sleep 120 & echo $! > " + pids + "; echo $$ >> " + pids + "; wait");

    ApplicationFailure failure =
        catchThrowableOfType(
            ApplicationFailure.class,
            () ->
                runner.run(
                    step("hang.sh"), Map.of(), new RecordingProgress(null), Duration.ofSeconds(2)));

    assertThat(failure.getType()).isEqualTo(StepFailures.EXECUTABLE_TIMED_OUT);
    assertThat(failure.getOriginalMessage()).contains("ran longer than PT2S and was killed");
    assertAllDead(pids);
  }

  @Test
  void aSecretReferenceInEnvReachesTheProgramAndItsValueIsMaskedInTheOutput() {
    ExecutableRunner withSecrets =
        new ExecutableRunner(
            root,
            ProgramAllowList.anyBelowRoot(),
            Set.of("DB_PASSWORD"),
            400,
            Map.of("PATH", System.getenv("PATH")),
            new WorkerSecrets(
                Optional.empty(), Map.of("JIMFLOW_SECRET_DB_PASSWORD", "correct-horse")),
            Containment.detect());
    Scripts.write(
        root,
        "login.sh",
        "[ \"$DB_PASSWORD\" = correct-horse ] && echo \"logged in with $DB_PASSWORD\"\n"
            + "echo \"::checkpoint after-$DB_PASSWORD\"");
    RecordingProgress progress = new RecordingProgress(null);

    ExecutableRunner.Finished finished =
        withSecrets.run(
            new ExecutableStep(
                "login.sh", null, null, Map.of("DB_PASSWORD", "${secret:db-password}")),
            Map.of(),
            progress,
            TIMEOUT);

    assertThat(finished.exitCode()).isZero();
    assertThat(finished.output()).isEqualTo("logged in with ***");
    assertThat(progress.lastCheckpoint()).contains("after-***");
  }

  @Test
  void aMultiLineSecretAndAValuePassedThroughTheAllowListAreMaskedLineByLine() {
    String key =
        "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB\n-----END KEY-----";
    ExecutableRunner withSecrets =
        new ExecutableRunner(
            root,
            ProgramAllowList.anyBelowRoot(),
            Set.of("TLS_KEY", "API_TOKEN"),
            4000,
            Map.of("PATH", System.getenv("PATH"), "API_TOKEN", "worker-token-31337"),
            new WorkerSecrets(Optional.empty(), Map.of("JIMFLOW_SECRET_TLS_KEY", key)),
            Containment.detect());
    Scripts.write(
        root,
        "leak.sh",
        "[ \"$API_TOKEN\" = worker-token-31337 ] && echo token arrived\n"
            + "printf '%s\\n' \"$TLS_KEY\" | grep -q MIIEvQIBADANBgkqhkiG9w0B && echo key arrived\n"
            + "echo \"token $API_TOKEN\"\n"
            + "printf '%s\\n' \"$TLS_KEY\"\n"
            + "printf '%s\\n' \"$TLS_KEY\" >&2\n");

    ExecutableRunner.Finished finished =
        withSecrets.run(
            new ExecutableStep("leak.sh", null, null, Map.of("TLS_KEY", "${secret:tls-key}")),
            Map.of(),
            new RecordingProgress(null),
            TIMEOUT);

    assertThat(finished.output())
        .contains("token arrived", "key arrived", "token ***", "stderr: ***")
        .doesNotContain(
            "worker-token-31337", "MIIEvQIBADANBgkqhkiG9w0B", "AQEFAASCBKcwggSjAgEAAoIB")
        .doesNotContain("BEGIN KEY", "END KEY");
  }

  /**
   * A 50 MB line without a line break, read by a JVM with a 48 MB heap: the old whole-line read ran
   * it out of memory; read in chunks, the step ends with the line's tail and a marker.
   */
  @Test
  void aFiftyMegabyteLineNeverBuffersWholeAndIsTruncatedWithAMarker() throws Exception {
    Scripts.write(root, "flood.sh", "head -c 52428800 /dev/zero | tr '\\0' x\necho\necho done");
    Process probe =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx48m",
                "-cp",
                System.getProperty("java.class.path"),
                OutputMemoryProbe.class.getName(),
                root.toString(),
                "flood.sh")
            .redirectErrorStream(true)
            .start();
    String answer = new String(probe.getInputStream().readAllBytes());
    assertThat(probe.waitFor()).as(answer).isZero();
    assertThat(answer)
        .contains("exit 0")
        .contains("[… 52424800 characters of this line truncated]xxxx")
        .contains("\ndone")
        .doesNotContain("OutOfMemoryError");
    assertThat(answer.length()).isLessThan(8_300);
  }

  @Test
  void aStepNamingASystemSecretFailsNamingTheStepAndNothingRuns() throws Exception {
    Path marker = dir.resolve("ran");
    Path folder = Files.createDirectories(dir.resolve("secrets"));
    Path keys =
        Files.writeString(folder.resolve("payload-keys"), "k1:c2VjcmV0LWtleS1tYXRlcmlhbA==");
    ExecutableRunner withSecrets =
        new ExecutableRunner(
            root,
            ProgramAllowList.anyBelowRoot(),
            Set.of("KEYS"),
            400,
            Map.of("PATH", System.getenv("PATH")),
            new WorkerSecrets(
                Optional.of(folder),
                Map.of(),
                io.jimflow.secrets.activities.SystemSecrets.builder()
                    .file("the payload keys", keys.toString())
                    .build()),
            Containment.detect());
    Scripts.write(root, "steal.sh", "echo \"$KEYS\" > '" + marker + "'");

    assertConfigurationError(
        () ->
            withSecrets.run(
                new ExecutableStep(
                    "steal.sh", null, null, Map.of("KEYS", "${secret:payload-keys}")),
                Map.of("JIMFLOW_STEP_NAME", "Nightly export"),
                new RecordingProgress(null),
                TIMEOUT),
        "step 'Nightly export': env secret 'payload-keys' is the payload keys, a secret of the"
            + " worker itself, which no step may name");
    assertThat(marker).doesNotExist();
  }

  @Test
  void anUnknownSecretIsAConfigurationErrorNamingItAndNothingRuns() {
    Path marker = dir.resolve("ran");
    Scripts.write(root, "touch.sh", "touch " + marker);

    assertConfigurationError(
        () ->
            runner.run(
                new ExecutableStep("touch.sh", null, null, Map.of("ALLOWED", "${secret:missing}")),
                Map.of(),
                new RecordingProgress(null),
                TIMEOUT),
        "secret 'missing' is not known");
    assertThat(marker).doesNotExist();
  }

  @Test
  void aProgramOffTheWorkersAllowListIsRefusedAndNeverStarted() {
    Path marker = dir.resolve("ran");
    Scripts.write(root, "tools/touch.sh", "touch " + marker);
    Scripts.write(root, "count.sh", "touch " + marker);
    ExecutableRunner strict =
        new ExecutableRunner(
            root,
            ProgramAllowList.of(
                List.of(new ProgramAllowList.Rule("count.sh", "\\d+( [0-9.]+)?", null))),
            Set.of());

    assertConfigurationError(
        () -> strict.run(step("tools/touch.sh"), Map.of(), new RecordingProgress(null), TIMEOUT),
        "program not allowed: tools/touch.sh");
    assertConfigurationError(
        () ->
            strict.run(
                new ExecutableStep("/bin/sh", List.of("-c", "touch " + marker), null, null),
                Map.of(),
                new RecordingProgress(null),
                TIMEOUT),
        "program not allowed: /bin/sh");
    assertConfigurationError(
        () ->
            strict.run(
                new ExecutableStep("count.sh", List.of("3", "; rm"), null, null),
                Map.of(),
                new RecordingProgress(null),
                TIMEOUT),
        "program not allowed: count.sh with these arguments");
    assertThat(marker).doesNotExist();

    strict.run(
        new ExecutableStep("./tools/../count.sh", List.of("3", "0.5"), null, null),
        Map.of(),
        new RecordingProgress(null),
        TIMEOUT);
    assertThat(marker).exists();
  }

  @Test
  void anAllowListRuleMustNameAProgramBelowTheRootAndAValidPattern() {
    assertThatThrownBy(
            () -> ProgramAllowList.of(List.of(new ProgramAllowList.Rule("/bin/sh", null, null))))
        .hasMessageContaining("allowed[0].program '/bin/sh' must be relative");
    assertThatThrownBy(
            () ->
                ProgramAllowList.of(List.of(new ProgramAllowList.Rule("a.sh", "(unclosed", null))))
        .hasMessageContaining("allowed[0].args is not a regular expression");
  }

  @Test
  void aCancelledProgramLeavesNothingBehindNotEvenADaemonThatLeftItsSession() throws Exception {
    Path pids = dir.resolve("pids");
    Scripts.write(
        root,
        "daemon.sh",
        // Double fork into a new session: the sleeper's parent exits, it is nobody's child.
        "( setsid sh -c 'sleep 600 & echo $! >> "
            + pids
            + "' & )\necho $$ >> "
            + pids
            + "\nwait\nsleep 600");
    RecordingProgress progress = new RecordingProgress(null).cancelAfter(3);

    assertThatThrownBy(() -> runner.run(step("daemon.sh"), Map.of(), progress, TIMEOUT))
        .isInstanceOf(ActivityCanceledException.class);

    assertAllDead(pids);
  }

  @Test
  void aProgramThatEndsTakesTheDaemonsItStartedWithIt() throws Exception {
    Path pids = dir.resolve("pids");
    Scripts.write(
        root,
        "leaves-daemon.sh",
        "( setsid sh -c 'sleep 600 & echo $! >> " + pids + "' & )\nsleep 1\necho $$ >> " + pids);

    ExecutableRunner.Finished finished = run("leaves-daemon.sh");

    assertThat(finished.exitCode()).isZero();
    assertAllDead(pids);
  }

  @Test
  void aStepsResourceLimitsApplyToItsProgram() {
    Scripts.write(root, "limits.sh", "echo \"$(ulimit -t) $(ulimit -v) $(ulimit -n)\"");

    ExecutableRunner.Finished finished =
        runner.run(
            new ExecutableStep(
                "limits.sh", null, null, null, new StepDefinition.Limits(30L, 256L, 64)),
            Map.of(),
            new RecordingProgress(null),
            TIMEOUT);

    assertThat(finished.output()).isEqualTo("30 262144 64");
  }

  @Test
  void limitsWithoutTheContainmentHelperAreAConfigurationError() {
    Scripts.write(root, "limits.sh", "exit 0");
    ExecutableRunner uncontained =
        new ExecutableRunner(
            root,
            ProgramAllowList.anyBelowRoot(),
            Set.of(),
            400,
            Map.of(),
            Secrets.none(),
            Containment.none());

    assertConfigurationError(
        () ->
            uncontained.run(
                new ExecutableStep(
                    "limits.sh", null, null, null, new StepDefinition.Limits(1L, null, null)),
                Map.of(),
                new RecordingProgress(null),
                TIMEOUT),
        "need python3 on the worker");
  }

  private ExecutableRunner.Finished run(String path) {
    return runner.run(step(path), Map.of(), new RecordingProgress(null), TIMEOUT);
  }

  private static ExecutableStep step(String path) {
    return new ExecutableStep(path, null, null, null);
  }

  private static void assertConfigurationError(Runnable run, String messagePart) {
    ApplicationFailure failure = catchThrowableOfType(ApplicationFailure.class, run::run);
    assertThat(failure).as("expected a configuration error").isNotNull();
    assertThat(failure.getType()).isEqualTo(StepFailures.CONFIGURATION_ERROR);
    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getOriginalMessage()).contains(messagePart);
  }

  private static void assertAllDead(Path pidFile) throws Exception {
    List<Long> pids =
        Files.readAllLines(pidFile).stream().map(String::trim).map(Long::parseLong).toList();
    assertThat(pids).hasSize(2);
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (pids.stream().anyMatch(ExecutableRunnerTest::alive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(pids).noneMatch(ExecutableRunnerTest::alive);
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }
}
