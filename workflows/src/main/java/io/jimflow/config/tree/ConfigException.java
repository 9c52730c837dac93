package io.jimflow.config.tree;

import java.util.List;
import java.util.stream.Collectors;

/** A configuration file has one or more problems; none of its content may be used. */
public class ConfigException extends RuntimeException {

  private final List<ConfigProblem> problems;

  public ConfigException(List<ConfigProblem> problems) {
    super(describe(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** Every problem found, in file order. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  /** The report a user reads: one problem a line, then how many there are. */
  public String report() {
    return describe(problems);
  }

  private static String describe(List<ConfigProblem> problems) {
    String lines = problems.stream().map(ConfigProblem::format).collect(Collectors.joining("\n"));
    return lines
        + "\n"
        + problems.size()
        + (problems.size() == 1 ? " problem" : " problems")
        + " found; nothing was changed.";
  }
}
