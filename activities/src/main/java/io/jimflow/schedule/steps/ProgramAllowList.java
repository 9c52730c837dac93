package io.jimflow.schedule.steps;

import io.jimflow.schedule.ExecutablePaths;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The programs this worker runs for Executable steps, whatever definition a step comes with: the
 * worker's operator decides, not whoever can start a workflow.
 *
 * <p>A rule names a program relative to the executables root, as a glob ({@code count.sh}, {@code
 * exports/*.sh}, {@code **} for everything below the root), and optionally a regular expression the
 * step's arguments must match as a whole, joined by single spaces. A program is allowed when some
 * rule matches both.
 */
public final class ProgramAllowList {

  /**
   * One allowed program (glob) with an optional pattern for its arguments and an optional user it
   * runs as (the worker must run as root to switch).
   */
  public record Rule(String program, String args, String runAs) {}

  private record CompiledRule(PathMatcher program, Optional<Pattern> args, Optional<String> runAs) {
    boolean allows(Path path, String argumentLine) {
      return program.matches(path) && args.map(p -> p.matcher(argumentLine).matches()).orElse(true);
    }
  }

  private final List<CompiledRule> rules;

  private ProgramAllowList(List<CompiledRule> rules) {
    this.rules = rules;
  }

  /**
   * The allow-list of these rules.
   *
   * @throws IllegalArgumentException naming the rule, when a program is not a relative path below
   *     the root or an argument pattern is not a regular expression
   */
  public static ProgramAllowList of(List<Rule> rules) {
    List<CompiledRule> compiled = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      Rule rule = rules.get(i);
      String where = "jimflow.steps.executables.allowed[" + i + "]";
      if (rule.program() == null || rule.program().isBlank()) {
        throw new IllegalArgumentException(where + ".program is missing");
      }
      ExecutablePaths.problem(rule.program().replace("*", "x"))
          .ifPresent(
              problem -> {
                throw new IllegalArgumentException(where + ".program " + problem);
              });
      PathMatcher program = FileSystems.getDefault().getPathMatcher("glob:" + rule.program());
      Optional<Pattern> args;
      try {
        args =
            rule.args() == null || rule.args().isEmpty()
                ? Optional.empty()
                : Optional.of(Pattern.compile(rule.args()));
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            where + ".args is not a regular expression: " + e.getDescription(), e);
      }
      Optional<String> runAs =
          rule.runAs() == null || rule.runAs().isBlank()
              ? Optional.empty()
              : Optional.of(rule.runAs());
      compiled.add(new CompiledRule(program, args, runAs));
    }
    return new ProgramAllowList(List.copyOf(compiled));
  }

  /** Allows nothing: every Executable step is refused. */
  public static ProgramAllowList none() {
    return new ProgramAllowList(List.of());
  }

  /** Allows every program below the executables root, with any arguments. */
  public static ProgramAllowList anyBelowRoot() {
    return of(List.of(new Rule("**", null, null)));
  }

  /**
   * Why {@code path} with {@code args} may not run, or empty when a rule allows it. A path that
   * leaves the root is never allowed, whatever the rules say.
   */
  public Optional<String> refusal(String path, List<String> args) {
    Optional<String> pathProblem = ExecutablePaths.problem(path);
    if (pathProblem.isPresent()) {
      return Optional.of("program not allowed: " + path + " (" + pathProblem.get() + ")");
    }
    Path program = Path.of(ExecutablePaths.normalized(path));
    List<CompiledRule> forProgram =
        rules.stream().filter(rule -> rule.program().matches(program)).toList();
    if (forProgram.isEmpty()) {
      return Optional.of(
          "program not allowed: "
              + path
              + " (not on this worker's allow-list, jimflow.steps.executables.allowed)");
    }
    if (forProgram.stream().noneMatch(rule -> rule.allows(program, String.join(" ", args)))) {
      return Optional.of(
          "program not allowed: "
              + path
              + " with these arguments (they do not match its pattern in"
              + " jimflow.steps.executables.allowed)");
    }
    return Optional.empty();
  }

  /** The user the first rule allowing {@code path} with {@code args} names, if any. */
  public Optional<String> runAs(String path, List<String> args) {
    Path program = Path.of(ExecutablePaths.normalized(path));
    String line = String.join(" ", args);
    return rules.stream()
        .filter(rule -> rule.allows(program, line))
        .findFirst()
        .flatMap(CompiledRule::runAs);
  }
}
