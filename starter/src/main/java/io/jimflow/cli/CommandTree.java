package io.jimflow.cli;

import io.jimflow.cli.data.DataGenerateCommand;
import io.jimflow.cli.demo.DemoCommand;
import io.jimflow.cli.executions.ExecutionApproveCommand;
import io.jimflow.cli.executions.ExecutionCancelCommand;
import io.jimflow.cli.executions.ExecutionListCommand;
import io.jimflow.cli.executions.ExecutionRejectCommand;
import io.jimflow.cli.executions.ExecutionShowCommand;
import io.jimflow.cli.housekeeping.HousekeepingRunCommand;
import io.jimflow.cli.items.ItemCancelCommand;
import io.jimflow.cli.items.ItemListCommand;
import io.jimflow.cli.items.ItemScheduleCommand;
import io.jimflow.cli.items.ItemShowCommand;
import io.jimflow.cli.items.ItemStartTimeCommand;
import io.jimflow.cli.preview.PreviewCommand;
import io.jimflow.cli.runs.RunRecordItemsCommand;
import io.jimflow.cli.runs.RunRecordListCommand;
import io.jimflow.cli.runs.RunRecordShowCommand;
import io.jimflow.cli.schedules.ScheduleApplyCommand;
import io.jimflow.cli.schedules.ScheduleBackfillCommand;
import io.jimflow.cli.schedules.ScheduleBuiltInsCommand;
import io.jimflow.cli.schedules.ScheduleDeleteCommand;
import io.jimflow.cli.schedules.ScheduleListCommand;
import io.jimflow.cli.schedules.SchedulePauseCommand;
import io.jimflow.cli.schedules.SchedulePlanCommand;
import io.jimflow.cli.schedules.ScheduleResumeCommand;
import io.jimflow.cli.schedules.ScheduleTriggerCommand;
import io.jimflow.cli.setup.SetupCommand;
import io.jimflow.cli.start.StartCommand;
import io.jimflow.cli.systems.SystemClearCommand;
import io.jimflow.cli.systems.SystemDeleteCommand;
import java.util.List;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The commands of {@code jimflow}, and how to build the tree for one invocation.
 *
 * <p>A command is a class; a group ({@code schedules}, {@code executions}, …) only names and
 * describes its commands, so it has no class: invoked without one of them, picocli says a
 * subcommand is missing and shows the group's usage (exit 2). An old name of a command stays as a
 * hidden alias.
 *
 * <p>The tree lives here rather than in {@code @Command(subcommands = ...)} because picocli
 * reflects over every command it is given, recursively, and for a short-lived CLI that costs more
 * than most commands' own work. So only the commands an invocation names are built in full; every
 * other one is a stand-in with its name and description, enough for usage lists and for "did you
 * mean" hints.
 */
final class CommandTree {

  /** An entry of the top level: a command, a group of commands, or a command's hidden old name. */
  private sealed interface Node {
    String name();

    /** The entry in full when {@code named} accepts its name, else its stand-in. */
    Object build(CommandLine.IFactory factory, Predicate<String> named);
  }

  private record Leaf(Class<?> type) implements Node {
    @Override
    public String name() {
      return annotation(type).name();
    }

    @Override
    public Object build(CommandLine.IFactory factory, Predicate<String> named) {
      return command(type, factory, named);
    }
  }

  private record Group(String name, String description, List<Class<?>> commands) implements Node {
    @Override
    public Object build(CommandLine.IFactory factory, Predicate<String> named) {
      if (!named.test(name)) {
        return standIn(name, new String[] {description}, false);
      }
      CommandSpec spec = CommandSpec.create().name(name).mixinStandardHelpOptions(true);
      spec.usageMessage().description(description);
      CommandLine group = new CommandLine(spec, factory);
      for (Class<?> type : commands) {
        group.addSubcommand(annotation(type).name(), command(type, factory, named));
      }
      return group;
    }
  }

  private record HiddenAlias(String name, Class<?> type) implements Node {
    @Override
    public Object build(CommandLine.IFactory factory, Predicate<String> named) {
      if (!named.test(name)) {
        return standIn(name, annotation(type).description(), true);
      }
      CommandLine alias = new CommandLine(type, factory);
      alias.getCommandSpec().name(name).usageMessage().hidden(true);
      return alias;
    }
  }

  private static final List<Node> COMMANDS =
      List.of(
          new Leaf(SetupCommand.class),
          new Group(
              "schedules",
              "Deploy and manage the Temporal Schedules made from config/schedules.yaml.",
              List.of(
                  SchedulePlanCommand.class,
                  ScheduleApplyCommand.class,
                  ScheduleListCommand.class,
                  SchedulePauseCommand.class,
                  ScheduleResumeCommand.class,
                  ScheduleTriggerCommand.class,
                  ScheduleBackfillCommand.class,
                  ScheduleDeleteCommand.class,
                  ScheduleBuiltInsCommand.class)),
          new Leaf(StartCommand.class),
          new Leaf(PreviewCommand.class),
          // The name of "start" until it was renamed, so as not to be confused with "runs".
          new HiddenAlias("run", StartCommand.class),
          new Group(
              "executions",
              "List, show, cancel, approve and reject schedule executions.",
              List.of(
                  ExecutionListCommand.class,
                  ExecutionShowCommand.class,
                  ExecutionCancelCommand.class,
                  ExecutionApproveCommand.class,
                  ExecutionRejectCommand.class)),
          new Group(
              "items",
              "Work items: schedule, start-time, cancel, show, list.",
              List.of(
                  ItemScheduleCommand.class,
                  ItemStartTimeCommand.class,
                  ItemCancelCommand.class,
                  ItemShowCommand.class,
                  ItemListCommand.class)),
          new Leaf(DemoCommand.class),
          new Group(
              "systems",
              "Clear or delete a connected system (runs as a workflow on the maintenance queue).",
              List.of(SystemClearCommand.class, SystemDeleteCommand.class)),
          new Group(
              "housekeeping",
              "Housekeeping: deletes metaverse objects whose deletion grace period has passed.",
              List.of(HousekeepingRunCommand.class)),
          new Group(
              "data",
              "Example identity data for the connected systems.",
              List.of(DataGenerateCommand.class)),
          new Group(
              "runs",
              "Run records (JIM's audit \"activities\") of run profile steps, read from the store"
                  + " by a worker.",
              List.of(
                  RunRecordListCommand.class,
                  RunRecordShowCommand.class,
                  RunRecordItemsCommand.class)));

  private CommandTree() {}

  /**
   * Adds jimflow's commands to {@code root}: in full (a group with its commands) when {@code named}
   * accepts their name, as stand-ins otherwise.
   */
  static void addCommands(CommandLine root, Predicate<String> named) {
    for (Node node : COMMANDS) {
      root.addSubcommand(node.name(), node.build(root.getFactory(), named));
    }
  }

  /** The command in full when named, else its stand-in. */
  private static Object command(
      Class<?> type, CommandLine.IFactory factory, Predicate<String> named) {
    Command command = annotation(type);
    return named.test(command.name())
        ? new CommandLine(type, factory)
        : standIn(command.name(), command.description(), false);
  }

  private static CommandSpec standIn(String name, String[] description, boolean hidden) {
    CommandSpec standIn = CommandSpec.create().name(name);
    standIn.usageMessage().description(description).hidden(hidden);
    return standIn;
  }

  private static Command annotation(Class<?> type) {
    return type.getAnnotation(Command.class);
  }
}
