package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What an operator hears of a run held for approval: the shipped nightly sync, after every person's
 * title changed, holds its directory export; the webhook hears of it once, and the worker's
 * Prometheus endpoint counts the execution as waiting, with the age of its wait, until someone
 * approves it.
 */
@ExtendWith(TemporalDevServerExtension.class)
class ApprovalMonitoringIT {

  private static final String SCHEDULE = "nightly-hr-sync";
  private static final String STEP = "Directory - Export";

  private String namespace;

  @Test
  void aHeldRunIsAGaugeAndOneMessageUntilItIsApproved(E2eEnvironment env) throws Exception {
    namespace = env.newNamespace("approvals");
    Path dir = env.newDirectory("approvals");
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      holdApproveAndWatch(env, dir, receiver.received(), receiver.url());
    }
  }

  private void holdApproveAndWatch(
      E2eEnvironment env, Path dir, List<JsonNode> received, String hook) throws Exception {
    WorkerProcess worker =
        env.startWorker(
            "approvals",
            E2eEnvironment.withOwnStore(
                Map.of(
                    "TEMPORAL_NAMESPACE",
                    namespace,
                    "JIMFLOW_DATA_PLANE_BASE_DIRECTORY",
                    dir.toString(),
                    "JIMFLOW_METRICS_REFRESH_INTERVAL",
                    "2s",
                    "JIMFLOW_NOTIFICATIONS_WEBHOOK_URL",
                    hook)));
    Path hr = dir.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer writer = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(3L).write(30, writer, n -> {});
    }
    String schedules = env.projectHome().resolve("config/schedules.yaml").toString();
    CliRun first = cli(env, "start", SCHEDULE, "-f", schedules, "--wait");
    assertThat(first.out()).as(first.out() + first.err()).contains("ended Complete");
    assertThat(waiting(worker)).as("nothing waits after a run that held nothing").isZero();

    retitle(hr);
    long startedAt = System.currentTimeMillis();
    CliRun start = cli(env, "start", SCHEDULE, "-f", schedules);
    assertThat(start.exit()).as(start.out() + start.err()).isZero();
    String id = start.out().strip();

    Await.until(
        () -> waiting(worker) == 1,
        "the held execution is counted as waiting for an approval",
        Duration.ofSeconds(120),
        Duration.ofMillis(250));
    long seenAt = System.currentTimeMillis();
    // The hold began between the start and the moment the gauge showed it; it ages as it waits.
    long readAt = System.currentTimeMillis();
    double age = oldest(worker);
    assertThat(age)
        .isBetween(
            (readAt - seenAt) / 1000.0 - 1, (System.currentTimeMillis() - startedAt) / 1000.0);
    Await.until(
        () -> oldest(worker) >= age + 2,
        "the oldest wait ages as Prometheus reads it",
        Duration.ofSeconds(10),
        Duration.ofMillis(250));

    // One message, as the step began to wait: schedule, execution, step, counts, threshold, how.
    Await.until(
        () -> !received.isEmpty(),
        "the hold reaches the webhook",
        Duration.ofSeconds(60),
        Duration.ofMillis(200));
    JsonNode message = received.get(0);
    assertThat(message.get("event").asText()).isEqualTo("AwaitingApproval");
    assertThat(message.get("execution").asText()).isEqualTo(id);
    assertThat(message.get("text").asText())
        .contains("Nightly HR Sync", SCHEDULE, id, "'" + STEP + "'", "waits for an approval")
        .containsPattern(
            "update \\d+ of \\d+ objects of Directory \\(\\d+%\\), above the threshold")
        .contains("jimflow executions approve|reject " + id + " --step '" + STEP + "'");

    CliRun approve =
        cli(env, "executions", "approve", id, "--step", STEP, "--reason", "the new titles");
    assertThat(approve.exit()).as(approve.out() + approve.err()).isZero();
    ExecutionResult result =
        env.client(namespace)
            .newUntypedWorkflowStub(id)
            .getResult(3, TimeUnit.MINUTES, ExecutionResult.class);
    assertThat(result.status()).isEqualTo(ExecutionStatus.Complete);
    Await.until(
        () -> waiting(worker) == 0 && oldest(worker) == 0,
        "the approved execution no longer waits",
        Duration.ofSeconds(30),
        Duration.ofMillis(250));
    assertThat(received).as("one message for the hold; the run then completed").hasSize(1);
  }

  private static double waiting(WorkerProcess worker) {
    return gauge(worker, "jimflow_executions_awaiting_approval");
  }

  private static double oldest(WorkerProcess worker) {
    return gauge(worker, "jimflow_approvals_waiting_oldest_seconds");
  }

  private static double gauge(WorkerProcess worker, String name) {
    List<PrometheusText.Sample> samples =
        PrometheusText.parse(worker.get("/actuator/prometheus")).find(name, "schedule", SCHEDULE);
    return samples.isEmpty() ? -1 : samples.get(0).value();
  }

  /** Every person's jobTitle gets " II": the directory export would update every entry. */
  private static void retitle(Path hr) throws Exception {
    List<String> lines = Files.readAllLines(hr);
    int title = List.of(lines.get(0).split(",")).indexOf("jobTitle");
    List<String> out = new ArrayList<>(List.of(lines.get(0)));
    for (String line : lines.subList(1, lines.size())) {
      assertThat(line).as("the example people need no quoting").doesNotContain("\"");
      String[] fields = line.split(",", -1);
      fields[title] = fields[title] + " II";
      out.add(String.join(",", fields));
    }
    Files.write(hr, out);
  }

  private CliRun cli(E2eEnvironment env, String... args) {
    return CliRun.of(env, namespace, args);
  }
}
