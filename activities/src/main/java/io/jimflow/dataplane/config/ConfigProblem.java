package io.jimflow.dataplane.config;

/** One thing wrong in a configuration file; {@code line} is 1-based, 0 when unknown. */
public record ConfigProblem(String file, int line, String message) {
  @Override
  public String toString() {
    return line > 0 ? file + ":" + line + ": " + message : file + ": " + message;
  }
}
