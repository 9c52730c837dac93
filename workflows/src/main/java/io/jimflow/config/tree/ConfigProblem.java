package io.jimflow.config.tree;

/**
 * One thing wrong with a configuration file.
 *
 * @param source the file as the user named it
 * @param line 1-based line, 0 when the problem concerns the file as a whole
 * @param path where in the document, e.g. {@code schedules[0].steps[2].timeout}; empty for the root
 */
public record ConfigProblem(String source, int line, String path, String message) {

  /** {@code config/schedules.yaml:14: steps[2].timeout: 'PT2X' is not an ISO-8601 duration}. */
  public String format() {
    StringBuilder text = new StringBuilder(source);
    if (line > 0) {
      text.append(':').append(line);
    }
    text.append(": ");
    if (!path.isEmpty()) {
      text.append(path).append(": ");
    }
    return text.append(message).toString();
  }

  @Override
  public String toString() {
    return format();
  }
}
