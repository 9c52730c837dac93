package io.jimflow.e2e;

import static io.jimflow.testing.ScheduleBuilders.aSchedule;
import static io.jimflow.testing.ScheduleBuilders.aStep;
import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.client.ExecutionSummary;
import io.jimflow.client.JimflowClient;
import io.jimflow.encryption.PayloadEncryption;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleDefinition.FailurePolicy;
import io.jimflow.schedule.ScheduleDefinition.OverlapPolicy;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepHeartbeat;
import io.jimflow.schedule.Trigger;
import io.jimflow.testing.Requirement;
import io.jimflow.testing.ScheduleBuilders.StepBuilder;
import io.jimflow.worker.dev.DevMode;
import io.jimflow.worker.dev.DevServer;
import io.jimflow.worker.dev.TemporalCli;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.workflow.v1.PendingActivityInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.File;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * What an operator sees of jimflow in the Temporal Web UI, checked in a real headless Chromium: the
 * workflow list filtered by schedule, a running execution's step rail and heartbeat progress, a
 * failed execution's failed step, and the schedule on the Schedules page. Screenshots land in
 * {@code worker-app/target/ui-screenshots/} (docs/images/ holds copies).
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver}; without them the test is skipped
 * with one line saying so, except under CI ({@code CI=true}), where it runs and fails.
 */
@ExtendWith({TemporalUiIT.RequiresChromium.class, TemporalDevServerExtension.class})
class TemporalUiIT {

  private static final Path CHROMIUM =
      Path.of(System.getenv().getOrDefault("JIMFLOW_CHROMIUM", "/usr/bin/chromium"));
  private static final Path CHROMEDRIVER =
      Path.of(System.getenv().getOrDefault("JIMFLOW_CHROMEDRIVER", "/usr/bin/chromedriver"));
  private static final Duration WAIT = Duration.ofSeconds(45);
  private static final Initiator OPERATOR = new Initiator(InitiatorType.User, "ops", "Operator");
  private static final String SCHEDULE_ID = "ui-nightly-sync";

  private static WebDriver browser;
  private static Path screenshots;

  /** Runs the class only where Chromium and its driver are installed, and always on CI. */
  static final class RequiresChromium implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return Requirement.evaluate(
          "Temporal UI browser tests",
          browserProblem(),
          "apt-get install -y chromium chromium-driver (or set JIMFLOW_CHROMIUM and"
              + " JIMFLOW_CHROMEDRIVER)");
    }
  }

  private static Optional<String> browserProblem() {
    if (Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER)) {
      return Optional.empty();
    }
    return Optional.of("no headless Chromium at " + CHROMIUM + " with a driver at " + CHROMEDRIVER);
  }

  @BeforeAll
  static void startBrowser() throws IOException {
    browserProblem()
        .ifPresent(
            problem -> {
              throw new AssertionError("The Temporal UI test needs a browser: " + problem);
            });

    // Both paths are given, so Selenium Manager has nothing to find; offline makes sure it fetches
    // nothing.
    System.setProperty("SE_OFFLINE", "true");
    Path profile = Files.createTempDirectory("jimflow-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,800",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    browser = new ChromeDriver(service, options);
    browser.manage().window().setSize(new Dimension(1280, 800));
    screenshots = Files.createDirectories(Path.of("target", "ui-screenshots").toAbsolutePath());
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  void anOperatorFindsRunningAndFailedExecutionsTheirStepsAndTheScheduleInTheTemporalUi(
      E2eEnvironment env) throws Exception {
    env.sharedWorker();
    JimflowClient jimflow = new JimflowClient(env.client(), env.scheduleClient());
    ScheduleDefinition nightly =
        schedule(
            step(0, "HR import", "count.sh", null, "400", "0.5"),
            step(1, "Directory export", "count.sh", null, "2", "0.1"));
    jimflow.schedules().apply(List.of(nightly));
    ScheduleDefinition failing =
        schedule(
            step(0, "HR import", "count.sh", null, "1", "0"),
            step(1, "Directory export", "fail.sh", 1, "4", "directory unreachable"),
            step(2, "Confirm", "count.sh", null, "1", "0"));

    String failed = jimflow.executions().start(failing, OPERATOR, false);
    String running = jimflow.executions().start(nightly, OPERATOR, false);
    assertThat(jimflow.executions().awaitResult(failed))
        .extracting(ExecutionResult::status)
        .isEqualTo(ExecutionStatus.Failed);
    awaitHeartbeat(env, running, 3);
    String ui = env.uiUrl() + "/namespaces/" + env.namespace();

    // The list, filtered the way an operator types it into the filter box.
    browser.get(ui + "/workflows?query=" + encode("JimflowScheduleId=\"" + SCHEDULE_ID + "\""));
    waitForText("list", running, failed);
    screenshot("workflow-list");

    // A running execution: the step rail in its current details, the step's progress in its
    // heartbeat.
    browser.get(ui + "/workflows/" + encode(running) + "/" + runId(env, running) + "/history");
    // Each activity's summary names its step and what it runs.
    waitForText("running", running, "HR import · executable count.sh");
    clickText("User Metadata");
    String page = waitForText("running", "HR import", "Running", "Step group 1 of 2");
    assertThat(page).contains("Directory export — Waiting");
    // Summary and details, fixed at start: schedule, who started it and how, the planned steps.
    assertThat(page)
        .contains("UI Nightly Sync · manual run by User Operator")
        .contains("Trigger Manual · Initiator User Operator (ops)")
        .contains("1 · Directory export · executable count.sh");
    scrollTo("Summary");
    screenshot("running-execution");
    clickTab("pending-activities-tab");
    page = waitForText("pending activity", "RunStep", "Heartbeat Details", "\"processed\"");
    assertThat(page).contains("\"total\": 400");
    screenshot("running-step-progress");

    // A failed execution: the failure names the failed step and why.
    browser.get(ui + "/workflows/" + encode(failed) + "/" + runId(env, failed) + "/history");
    page =
        waitForText(
            "failed",
            "Failed",
            "'Directory export' FailedWithError",
            "exited with code 4: stderr: directory unreachable");
    assertThat(page).contains("Stopped after step group 2 of 3");
    screenshot("failed-execution");

    // The Schedules page lists the schedule; its page shows the note.
    browser.get(ui + "/schedules");
    waitForText("schedules", SCHEDULE_ID);
    screenshot("schedules");
    browser.get(ui + "/schedules/" + encode(SCHEDULE_ID));
    waitForText("schedule", SCHEDULE_ID, "Notes\n" + nightly.description());
    screenshot("schedule");

    // A scheduled run's id is the schedule id with the nominal start time appended by Temporal.
    jimflow.schedules().trigger(SCHEDULE_ID);
    String scheduled = awaitScheduledRun(jimflow);
    assertThat(scheduled).matches(SCHEDULE_ID + "-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    browser.get(
        ui + "/workflows/" + encode(scheduled) + "/" + runId(env, scheduled) + "/user-metadata");
    waitForText("scheduled run", scheduled, "UI Nightly Sync · scheduled run", "Trigger Scheduled");
  }

  /**
   * With payload encryption on, Temporal holds only ciphertext (SecurityIT checks the history); the
   * UI of a dev server started as `./jimflow dev` starts it, with its codec endpoint at the worker,
   * still shows the step and why it failed.
   */
  @Test
  void anEncryptedExecutionReadsInTheUiThroughTheWorkersCodecServer(E2eEnvironment env)
      throws Exception {
    int codecPort = ReservedPorts.reserve();
    int uiPort = ReservedPorts.reserve();
    Path dir = env.newDirectory("encrypted-ui");
    DevServer.Options options =
        new DevServer.Options(
                TemporalCli.locate(Optional.of(env.projectHome())),
                "127.0.0.1",
                ReservedPorts.reserve(),
                uiPort,
                dir.resolve("temporal.db"),
                dir.resolve("temporal-server.log"),
                "default",
                DevServer.LOW_LATENCY_ARGS,
                Duration.ofSeconds(90))
            .withUiCodecEndpoint(DevMode.codecEndpoint(codecPort));
    String keys =
        "ui-e2e:" + Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
    try (DevServer server = DevServer.start(options)) {
      WorkerProcess worker =
          env.startWorker(
              "encrypted-ui-worker",
              Map.of(
                  "TEMPORAL_ADDRESS",
                  server.target(),
                  "TEMPORAL_NAMESPACE",
                  "default",
                  "SERVER_PORT",
                  Integer.toString(codecPort),
                  "JIMFLOW_PAYLOAD_ENCRYPTION_KEYS",
                  keys,
                  "JIMFLOW_CODEC_SERVER_ENABLED",
                  "true",
                  "JIMFLOW_CODEC_SERVER_ALLOWED_ORIGINS",
                  "http://localhost:" + uiPort));
      WorkflowServiceStubs stubs =
          WorkflowServiceStubs.newServiceStubs(
              WorkflowServiceStubsOptions.newBuilder().setTarget(server.target()).build());
      try {
        WorkflowClient client =
            WorkflowClient.newInstance(
                stubs,
                WorkflowClientOptions.newBuilder()
                    .setNamespace("default")
                    .setDataConverter(PayloadEncryption.of(null, keys).dataConverter())
                    .build());
        JimflowClient jimflow = new JimflowClient(client, null);
        String failed =
            jimflow
                .executions()
                .start(
                    schedule(
                        step(0, "HR import", "count.sh", null, "1", "0"),
                        step(1, "Directory export", "fail.sh", 1, "4", "directory unreachable")),
                    OPERATOR,
                    false);
        assertThat(jimflow.executions().awaitResult(failed))
            .extracting(ExecutionResult::status)
            .isEqualTo(ExecutionStatus.Failed);
        // What the server holds, read without the codec: none of what the UI shows below.
        assertThat(client.fetchHistory(failed).getHistory().toByteString().toStringUtf8())
            .contains("encryption-key-id")
            .doesNotContain("Directory export", "directory unreachable", "UI Nightly Sync");

        browser.get(
            server.uiUrl()
                + "/namespaces/default/workflows/"
                + encode(failed)
                + "/"
                + client.newUntypedWorkflowStub(failed).describe().getExecution().getRunId()
                + "/history");
        waitForText(
            "encrypted execution",
            "Directory export · executable fail.sh",
            "exited with code 4: stderr: directory unreachable");
        screenshot("encrypted-execution-decoded");
      } finally {
        stubs.shutdownNow();
        worker.kill();
      }
    }
  }

  /** Leaves the shared server as found: other tests count and reconcile its schedules. */
  @AfterEach
  void removeTheScheduleAndItsRuns(E2eEnvironment env) {
    if (browser == null) {
      return;
    }
    JimflowClient jimflow = new JimflowClient(env.client(), env.scheduleClient());
    if (jimflow.schedules().list().stream().anyMatch(s -> s.id().equals(SCHEDULE_ID))) {
      jimflow.schedules().delete(SCHEDULE_ID, false);
    }
    for (ExecutionSummary open :
        jimflow.executions().list(SCHEDULE_ID, ExecutionStatus.InProgress, 20)) {
      if (jimflow.executions().isOpen(open.workflowId())) {
        jimflow.executions().cancel(open.workflowId());
      }
    }
  }

  private static String awaitScheduledRun(JimflowClient jimflow) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<String> id =
          jimflow.executions().list(SCHEDULE_ID, null, 10).stream()
              .map(ExecutionSummary::workflowId)
              .filter(w -> !w.contains("/manual/"))
              .findFirst();
      if (id.isPresent()) {
        return id.get();
      }
      Thread.sleep(300);
    }
    throw new AssertionError("triggering " + SCHEDULE_ID + " started no run within " + WAIT);
  }

  private static ScheduleDefinition schedule(StepBuilder... steps) {
    return aSchedule(SCHEDULE_ID)
        .named("UI Nightly Sync")
        .describedAs("Imports HR and exports to the directory (Temporal UI test).")
        // Never fires during the test; the executions are manual runs.
        .triggeredBy(new Trigger(List.of("0 3 1 1 *"), null, null, "UTC"))
        .onStepFailure(FailurePolicy.STOP)
        .onOverlap(OverlapPolicy.SKIP)
        .with(steps)
        .definition();
  }

  private static StepBuilder step(
      int index, String name, String program, Integer attempts, String... args) {
    return aStep(index, name)
        .executable(program, args)
        .attemptsOrDefault(attempts)
        // Short, so heartbeats (sent at most every 0.8 x this) reach the server while the test
        // looks.
        .heartbeatTimeout(Duration.ofSeconds(2));
  }

  /** Waits until the page shows every text; returns the page's text. */
  private static String waitForText(String what, String... texts) throws IOException {
    Function<WebDriver, String> allShown =
        driver -> {
          String text = bodyText(driver);
          for (String t : texts) {
            if (!text.contains(t)) {
              return null;
            }
          }
          return text;
        };
    try {
      return new WebDriverWait(browser, WAIT, Duration.ofMillis(500)).until(allShown);
    } catch (TimeoutException e) {
      screenshot("timeout-" + what);
      Files.writeString(screenshots.resolve("timeout-" + what + ".txt"), bodyText(browser));
      throw new AssertionError(
          "The "
              + what
              + " page at "
              + browser.getCurrentUrl()
              + " did not show all of "
              + List.of(texts)
              + " within "
              + WAIT
              + "; its text is in "
              + screenshots,
          e);
    }
  }

  /** The page's text, including its frames (the UI renders markdown details in one). */
  private static String bodyText(WebDriver driver) {
    StringBuilder text = new StringBuilder();
    try {
      text.append(driver.findElement(By.tagName("body")).getText());
      for (WebElement frame : driver.findElements(By.tagName("iframe"))) {
        driver.switchTo().frame(frame);
        try {
          text.append('\n').append(driver.findElement(By.tagName("body")).getText());
        } finally {
          driver.switchTo().defaultContent();
        }
      }
    } catch (RuntimeException changedMeanwhile) {
      // The page re-rendered while being read; the next poll reads it again.
      driver.switchTo().defaultContent();
    }
    return text.toString();
  }

  private static void clickTab(String testId) {
    WebElement tab =
        new WebDriverWait(browser, WAIT)
            .until(d -> d.findElement(By.cssSelector("[data-testid='" + testId + "']")));
    ((JavascriptExecutor) browser)
        .executeScript("arguments[0].scrollIntoView({block: 'center'});", tab);
    tab.click();
  }

  private static void clickText(String text) {
    new WebDriverWait(browser, WAIT)
        .until(d -> d.findElement(By.xpath("//*[normalize-space(text())='" + text + "']")))
        .click();
  }

  private static void scrollTo(String text) {
    WebElement element =
        browser.findElement(By.xpath("//*[normalize-space(text())='" + text + "']"));
    ((JavascriptExecutor) browser)
        .executeScript("arguments[0].scrollIntoView({block: 'start'});", element);
  }

  private static void screenshot(String name) throws IOException {
    Files.writeString(screenshots.resolve(name + ".txt"), bodyText(browser));
    File shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
    Files.copy(
        shot.toPath(), screenshots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String runId(E2eEnvironment env, String workflowId) {
    return env.client().newUntypedWorkflowStub(workflowId).describe().getExecution().getRunId();
  }

  private static void awaitHeartbeat(E2eEnvironment env, String workflowId, long processed)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      var described =
          env.client()
              .getWorkflowServiceStubs()
              .blockingStub()
              .describeWorkflowExecution(
                  DescribeWorkflowExecutionRequest.newBuilder()
                      .setNamespace(env.namespace())
                      .setExecution(WorkflowExecution.newBuilder().setWorkflowId(workflowId))
                      .build());
      long seen =
          described.getPendingActivitiesList().stream()
              .filter(PendingActivityInfo::hasHeartbeatDetails)
              .mapToLong(
                  a ->
                      DefaultDataConverter.STANDARD_INSTANCE
                          .fromPayloads(
                              0,
                              Optional.of(a.getHeartbeatDetails()),
                              StepHeartbeat.class,
                              StepHeartbeat.class)
                          .processed())
              .max()
              .orElse(0);
      if (seen >= processed) {
        return;
      }
      Thread.sleep(300);
    }
    throw new AssertionError(workflowId + ": no heartbeat reached " + processed + " in " + WAIT);
  }
}
