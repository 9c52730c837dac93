package io.jimflow.cli.schedules;

import io.jimflow.cli.output.Json;
import io.jimflow.cli.output.JsonOutput;
import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.schedule.ScheduleDefinition;
import io.jimflow.schedule.deploy.SchedulePlan;
import io.jimflow.schedule.file.ScheduleDefinitions;
import io.jimflow.schedule.file.ScheduleFile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** A command that reads the schedules file, validating all of it before it connects. */
public abstract class DefinitionsFileCommand extends ClientCommand {

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      defaultValue = ScheduleDefinitions.DEFAULT_FILE,
      description = "Schedules file (default ${DEFAULT-VALUE}).")
  public Path file;

  @Mixin public JsonOutput json;

  public List<ScheduleDefinition> definitions;

  /** The scope the file owns: its {@code scope:} key, or else its base name. */
  public String scope;

  @Override
  public void checkInput() {
    ScheduleFile loaded = ScheduleDefinitions.loadFile(file);
    definitions = loaded.definitions();
    scope = loaded.scope();
  }

  public void printPlan(SchedulePlan plan, String heading) {
    if (json.on()) {
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("file", file.toString());
      document.put("scope", plan.scope());
      document.put(
          "changes",
          plan.changes().stream()
              .map(
                  c -> {
                    Map<String, Object> change = new LinkedHashMap<>();
                    change.put("action", c.kind().name().toLowerCase(java.util.Locale.ROOT));
                    change.put("id", c.id());
                    change.put("aspects", c.aspects());
                    return change;
                  })
              .toList());
      document.put("unchanged", plan.unchanged());
      document.put(
          "conflicts",
          plan.conflicts().stream()
              .map(
                  c -> {
                    Map<String, Object> conflict = new LinkedHashMap<>();
                    conflict.put("id", c.id());
                    conflict.put("ownerScope", c.owner());
                    conflict.put("message", c.describe());
                    return conflict;
                  })
              .toList());
      out().println(Json.write(document));
      return;
    }
    out().println("Scope: " + plan.scope());
    for (SchedulePlan.Conflict conflict : plan.conflicts()) {
      out().println("  ! " + conflict.describe());
    }
    if (!plan.hasChanges()) {
      out()
          .println(
              "No changes: "
                  + plan.unchanged().size()
                  + (plan.unchanged().size() == 1 ? " schedule is" : " schedules are")
                  + " up to date.");
      return;
    }
    out().println(heading);
    for (SchedulePlan.Change change : plan.changes()) {
      String sign =
          switch (change.kind()) {
            case CREATE -> "+";
            case UPDATE -> "~";
            case DELETE -> "-";
          };
      out().println("  " + sign + " " + change.describe());
    }
    if (!plan.unchanged().isEmpty()) {
      out().println("  " + plan.unchanged().size() + " unchanged");
    }
  }
}
