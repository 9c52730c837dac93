package io.jimflow.cli.demo;

import io.jimflow.cli.output.StepOrder;
import io.jimflow.cli.output.Table;
import io.jimflow.cli.schedules.DefinitionsFileCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.cli.start.StartCommand;
import io.jimflow.client.JimflowClient;
import io.jimflow.client.NotFoundException;
import io.jimflow.common.TaskQueues;
import io.jimflow.config.JimflowHome;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ExecutionResult;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.StepOutcome;
import io.jimflow.schedule.deploy.SchedulePlan;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jimflow demo}: deploys the example schedules, generates example HR people, runs the
 * Nightly HR Sync (import, sync, two exports, two confirming imports) and the script-only schedule
 * to their ends, printing each step transition and then a result table (with each step's run record
 * totals for the sync). {@code ./jimflow demo} brings up the embedded dev server and a worker for
 * it when none runs.
 */
@Command(
    name = "demo",
    description = {
      "Apply the example schedules, generate example HR people, run the Nightly HR Sync, change",
      "a few people and run the Hourly HR Delta Sync, then the Executable-only example, printing",
      "each step's result and run record totals.",
      "./jimflow demo starts the embedded dev server and a worker for the demo when none runs.",
      "Exit 0 when every run completed (a step allowed to fail may fail), 1 otherwise."
    })
public class DemoCommand extends DefinitionsFileCommand {

  @Option(
      names = "--schedule",
      paramLabel = "ID",
      defaultValue = "script-demo",
      description = "The Executable-only schedule to run (default ${DEFAULT-VALUE}).")
  public String scheduleId;

  @Option(
      names = "--sync-schedule",
      paramLabel = "ID",
      defaultValue = "nightly-hr-sync",
      description = "The identity sync schedule to run (default ${DEFAULT-VALUE}).")
  public String syncScheduleId;

  @Option(
      names = "--people",
      paramLabel = "N",
      defaultValue = "10000",
      description = "Example HR people to generate for the sync (default ${DEFAULT-VALUE}).")
  public long people;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Where the worker reads hr.csv: the data/ folder of the worker's jimflow home"
              + " (default: data/ of this checkout).")
  public Path dataDir;

  @Option(
      names = "--delta-schedule",
      paramLabel = "ID",
      defaultValue = "hourly-hr-delta-sync",
      description =
          "The delta sync schedule run after a few HR rows changed (default ${DEFAULT-VALUE}).")
  public String deltaScheduleId;

  /** The scope of the schedules the demo deploys, whatever the file says. */
  public static final String DEMO_SCOPE = "demo";

  /** How many HR people the demo changes before the delta sync. */
  public static final int CHANGED_PEOPLE = 3;

  @Option(names = "--skip-sync", description = "Run only the Executable-only schedule.")
  public boolean skipSync;

  @Option(names = "--poll-interval", hidden = true, defaultValue = "PT0.5S")
  public Duration pollInterval;

  @Override
  public int run(JimflowClient client) throws Exception {
    ScheduleDefinition script = definition(scheduleId);
    ScheduleDefinition sync = skipSync ? null : definition(syncScheduleId);
    ScheduleDefinition delta = skipSync ? null : definition(deltaScheduleId);
    // The demo owns its own scope: an operator's schedules elsewhere stay exactly as they are, and
    // an example id another scope owns is run from the file but left deployed as that scope has it.
    List<String> otherScopes =
        client.schedules().plan(DEMO_SCOPE, definitions).conflicts().stream()
            .filter(c -> c.owner() != null)
            .map(SchedulePlan.Conflict::id)
            .toList();
    out()
        .println(
            "The demo deploys only its own schedules, in scope '"
                + DEMO_SCOPE
                + "'; schedules of other scopes are left as they are.");
    otherScopes.forEach(
        id ->
            out()
                .println(
                    "  (" + id + " belongs to another scope; the demo leaves it deployed as is)"));
    SchedulePlan plan =
        client
            .schedules()
            .apply(
                DEMO_SCOPE,
                definitions.stream().filter(d -> !otherScopes.contains(d.id())).toList());
    printPlan(plan, "Applied " + file + ":");
    if (!client.hasWorker(TaskQueues.SCHEDULES)) {
      err()
          .println(
              "jimflow demo: no worker polls "
                  + TaskQueues.SCHEDULES
                  + " on this server; start one with ./jimflow dev and run the demo again");
      return ExitCodes.ENDED_BADLY;
    }
    boolean allCompleted = true;
    if (sync != null) {
      Path hr = (dataDir == null ? JimflowHome.dir().resolve("data") : dataDir).resolve("hr.csv");
      generatePeople(hr);
      allCompleted &= completed(runAndReport(client, sync, true));
      changeSomePeople(hr);
      allCompleted &= completed(runAndReport(client, delta, true));
    }
    allCompleted &= completed(runAndReport(client, script, false));
    return allCompleted ? ExitCodes.OK : ExitCodes.ENDED_BADLY;
  }

  private ScheduleDefinition definition(String id) {
    return definitions.stream()
        .filter(d -> d.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new NotFoundException("schedule " + id + " is not in " + file));
  }

  private static boolean completed(ExecutionResult result) {
    return result.status() == ExecutionStatus.Complete
        || result.status() == ExecutionStatus.CompleteWithError;
  }

  private void generatePeople(Path hr) throws IOException {
    Files.createDirectories(hr.toAbsolutePath().getParent());
    out().println();
    out().println("Generating " + people + " example HR people into " + hr);
    out().flush();
    try (Writer writer = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(1L).write(people, writer, written -> {});
    }
  }

  /**
   * Gives the first few people a new job title, so that the delta sync has exactly that to carry.
   */
  private void changeSomePeople(Path hr) throws IOException {
    List<String> lines = Files.readAllLines(hr, StandardCharsets.UTF_8);
    int jobTitle = List.of(lines.get(0).split(",", -1)).indexOf("jobTitle");
    int changed = 0;
    for (int i = 1; i < lines.size() && changed < CHANGED_PEOPLE; i++) {
      String[] fields = lines.get(i).split(",", -1);
      if (jobTitle < 0 || jobTitle >= fields.length || lines.get(i).contains("\"")) {
        continue;
      }
      fields[jobTitle] = "Identity Champion " + (changed + 1);
      lines.set(i, String.join(",", fields));
      changed++;
    }
    Files.write(hr, lines, StandardCharsets.UTF_8);
    out().println();
    out().println("Changed the job title of " + changed + " people in " + hr);
  }

  private ExecutionResult runAndReport(
      JimflowClient client, ScheduleDefinition schedule, boolean withTotals)
      throws InterruptedException {
    String workflowId =
        client
            .executions()
            .start(schedule, new Initiator(InitiatorType.User, "demo", "jimflow demo"), false);
    out().println();
    out()
        .println(
            "Running " + schedule.name() + " as " + workflowId + " (watch it in the Temporal UI)");
    out().flush();
    ExecutionResult result =
        StartCommand.follow(client.executions(), workflowId, out(), pollInterval);

    out().println();
    Table table =
        new Table(
            "GROUP",
            "STEP",
            "STATUS",
            "ATTEMPTS",
            "SECONDS",
            withTotals ? "RUN RECORD TOTALS" : "MESSAGE");
    for (StepOutcome step :
        StepOrder.failuresFirst(result.steps(), StepOutcome::index, StepOutcome::status)) {
      table.row(
          step.index(),
          step.name(),
          step.status(),
          step.attempts(),
          step.startedAt() == null || step.endedAt() == null
              ? null
              : String.format(
                  Locale.ROOT,
                  "%.1f",
                  Duration.between(step.startedAt(), step.endedAt()).toMillis() / 1000.0),
          withTotals ? totals(step) : lastLine(step.message()));
    }
    table.print(out());
    out().println();
    out()
        .println(
            schedule.name()
                + " ended "
                + result.status()
                + (result.message() == null || result.message().isBlank()
                    ? "."
                    : ": " + result.message()));
    return result;
  }

  /** The run record's non-zero totals, e.g. "added=10000 projected=10000". */
  private static String totals(StepOutcome step) {
    String text =
        step.stats().entrySet().stream()
            .filter(e -> e.getValue() != null && e.getValue() != 0)
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(" "));
    return text.isEmpty() ? lastLine(step.message()) : text;
  }

  private static String lastLine(String message) {
    if (message == null || message.isBlank()) {
      return null;
    }
    String line = message.strip().lines().reduce((a, b) -> b).orElse("");
    return line.length() > 60 ? line.substring(0, 57) + "..." : line;
  }
}
