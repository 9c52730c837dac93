package io.jimflow.schedule.file;

import io.jimflow.schedule.ScheduleDefinition;
import java.nio.file.Path;
import java.util.List;

/**
 * A schedules file: the scope it owns and its definitions. {@code schedules apply} creates, updates
 * and deletes schedules of that scope only, so files of different teams never touch each other's.
 *
 * @param scope the file's {@code scope:} key, or else its base name
 */
public record ScheduleFile(String scope, List<ScheduleDefinition> definitions) {

  public ScheduleFile {
    definitions = List.copyOf(definitions);
  }

  /** {@code hr} for {@code config/hr.yaml}: stable, and different for different files. */
  static String defaultScope(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String base = dot > 0 ? name.substring(0, dot) : name;
    String cleaned = base.replaceAll("[^A-Za-z0-9._-]", "-");
    return cleaned.isEmpty() || !Character.isLetterOrDigit(cleaned.charAt(0))
        ? "file-" + cleaned
        : cleaned;
  }
}
