package io.jimflow.dataplane.config;

import java.util.List;
import java.util.stream.Collectors;

/** A configuration file has problems; all of them are listed, each with file and line. */
public class ConfigException extends RuntimeException {

  private final List<ConfigProblem> problems;

  public ConfigException(List<ConfigProblem> problems) {
    super(
        problems.size()
            + (problems.size() == 1 ? " problem" : " problems")
            + " in the configuration:\n"
            + problems.stream().map(p -> "  " + p).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  public List<ConfigProblem> problems() {
    return problems;
  }
}
