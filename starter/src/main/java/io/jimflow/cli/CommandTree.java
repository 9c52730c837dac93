package io.jimflow.cli;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The commands of {@code jimflow} and their subcommands, and how to build the tree for one
 * invocation.
 *
 * <p>The tree lives here rather than in {@code @Command(subcommands = ...)} because picocli
 * reflects over every command it is given, recursively, and for a short-lived CLI that costs more
 * than most commands' own work. So only the commands an invocation names are built in full; every
 * other one is a stand-in with its name and description, enough for usage lists and for "did you
 * mean" hints.
 */
final class CommandTree {

  private static final Map<Class<?>, List<Class<?>>> SUBCOMMANDS =
      Map.of(
          JimflowCli.class,
          List.of(
              SetupCommand.class,
              SchedulesCommand.class,
              RunCommand.class,
              ExecutionsCommand.class,
              ItemsCommand.class,
              DemoCommand.class,
              SystemsCommand.class,
              HousekeepingCommand.class,
              DataCommand.class,
              RunsCommand.class),
          SchedulesCommand.class,
          List.of(
              SchedulePlanCommand.class,
              ScheduleApplyCommand.class,
              ScheduleListCommand.class,
              SchedulePauseCommand.class,
              ScheduleResumeCommand.class,
              ScheduleTriggerCommand.class,
              ScheduleBackfillCommand.class,
              ScheduleDeleteCommand.class,
              ScheduleBuiltInsCommand.class),
          ExecutionsCommand.class,
          List.of(
              ExecutionListCommand.class, ExecutionShowCommand.class, ExecutionCancelCommand.class),
          ItemsCommand.class,
          List.of(
              ItemsCommand.Schedule.class,
              ItemsCommand.StartTime.class,
              ItemsCommand.Cancel.class,
              ItemsCommand.Show.class,
              ItemsCommand.ListItems.class),
          SystemsCommand.class,
          List.of(SystemClearCommand.class, SystemDeleteCommand.class),
          HousekeepingCommand.class,
          List.of(HousekeepingRunCommand.class),
          DataCommand.class,
          List.of(DataGenerateCommand.class),
          RunsCommand.class,
          List.of(RunsListCommand.class, RunsShowCommand.class, RunsItemsCommand.class));

  private CommandTree() {}

  /**
   * Adds the subcommands of {@code type} to {@code parent}: in full (with theirs, recursively) when
   * {@code named} accepts their name, as stand-ins otherwise.
   */
  static void addSubcommands(CommandLine parent, Class<?> type, Predicate<String> named) {
    for (Class<?> subcommand : SUBCOMMANDS.getOrDefault(type, List.of())) {
      Command command = subcommand.getAnnotation(Command.class);
      if (named.test(command.name())) {
        CommandLine child = new CommandLine(subcommand, parent.getFactory());
        addSubcommands(child, subcommand, named);
        parent.addSubcommand(command.name(), child);
      } else {
        CommandSpec standIn = CommandSpec.create().name(command.name());
        standIn.usageMessage().description(command.description());
        parent.addSubcommand(command.name(), standIn);
      }
    }
  }
}
