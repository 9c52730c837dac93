package io.jimflow.cli.schedules;

import io.jimflow.client.JimflowClient;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jimflow schedules backfill ID --from T --to T}. */
@Command(
    name = "backfill",
    description = {
      "Run every start the schedule would have made between --from and --to, one after another.",
      "Times are ISO-8601: 2026-01-31T02:00:00Z, 2026-01-31T02:00+01:00, or a date (midnight UTC)."
    })
public class ScheduleBackfillCommand extends ScheduleIdCommand {

  @Option(names = "--from", required = true, paramLabel = "TIME", converter = TimeConverter.class)
  public Instant from;

  @Option(names = "--to", required = true, paramLabel = "TIME", converter = TimeConverter.class)
  public Instant to;

  @Override
  public void checkInput() {
    if (!from.isBefore(to)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--from (" + from + ") must be before --to (" + to + ")");
    }
  }

  @Override
  public String act(JimflowClient client) {
    client.schedules().backfill(scheduleId, from, to);
    return "Backfilling " + scheduleId + " from " + from + " to " + to + ".";
  }

  /** Reads an instant, an offset date-time or a plain date. */
  static final class TimeConverter implements CommandLine.ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      try {
        return OffsetDateTime.parse(value).toInstant();
      } catch (DateTimeParseException notADateTime) {
        try {
          return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException notADate) {
          throw new CommandLine.TypeConversionException(
              "'" + value + "' is not an ISO-8601 time (e.g. 2026-01-31T02:00:00Z) or date");
        }
      }
    }
  }
}
