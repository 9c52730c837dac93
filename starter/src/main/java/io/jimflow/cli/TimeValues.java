package io.jimflow.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * How every command reads time values: a {@link Duration} is an ISO-8601 duration (PT10M), an
 * {@link Instant} a start time (an ISO instant, {@code now}, or {@code +} and a duration) unless
 * the option names a converter of its own. A value that is neither is reported in one line naming
 * the option, like the other input errors (exit 2), and nothing is sent.
 */
final class TimeValues {

  private TimeValues() {}

  /** Registers the converters with {@code root} and the commands it has now. */
  static void register(CommandLine root) {
    root.registerConverter(Duration.class, TimeValues::duration);
    root.registerConverter(Instant.class, TimeValues::start);
    CommandLine.IParameterExceptionHandler standard = root.getParameterExceptionHandler();
    root.setParameterExceptionHandler(
        (e, args) ->
            e.getCause() instanceof BadTime bad
                ? report(e, bad)
                : standard.handleParseException(e, args));
  }

  static Duration duration(String text) {
    try {
      return Duration.parse(text);
    } catch (DateTimeParseException e) {
      throw new BadTime("'" + text + "' is not an ISO-8601 duration such as PT10M");
    }
  }

  static Instant start(String text) {
    try {
      if (text.equals("now")) {
        return Instant.now();
      }
      if (text.startsWith("+")) {
        return Instant.now().plus(Duration.parse(text.substring(1)));
      }
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new BadTime(
          "'"
              + text
              + "' is neither an ISO instant (2026-01-31T08:00:00Z), 'now', nor +duration (+PT10M)");
    }
  }

  private static int report(CommandLine.ParameterException e, BadTime bad) {
    PrintWriter err = e.getCommandLine().getErr();
    err.println("jimflow: " + name(e.getArgSpec()) + ": " + bad.getMessage());
    err.flush();
    return JimflowCli.BAD_INPUT;
  }

  /** The option's name, or a positional parameter's label without its angle brackets. */
  private static String name(ArgSpec arg) {
    return arg instanceof OptionSpec option
        ? option.longestName()
        : arg.paramLabel().replaceAll("^<(.*)>$", "$1");
  }

  /** A time value that cannot be read; the message says why, the report adds the option. */
  private static final class BadTime extends CommandLine.TypeConversionException {
    BadTime(String message) {
      super(message);
    }
  }
}
