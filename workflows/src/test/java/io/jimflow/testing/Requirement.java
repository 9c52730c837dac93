package io.jimflow.testing;

import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/**
 * A service some tests need (PostgreSQL, a browser, docker-compose): on a developer's machine
 * without it they are skipped with one line that says what is missing and how to run them; under
 * {@code CI=true} they always run, so a missing service fails them instead of hiding them.
 */
public final class Requirement {

  private Requirement() {}

  /** Whether the CI environment variable says this is a CI run, where nothing may be skipped. */
  public static boolean onCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }

  /**
   * Enabled when {@code problem} is empty or on CI; otherwise disabled with "{@code what} skipped:
   * {@code problem}. To run them: {@code howToRun}".
   */
  public static ConditionEvaluationResult evaluate(
      String what, Optional<String> problem, String howToRun) {
    if (problem.isEmpty()) {
      return ConditionEvaluationResult.enabled(what + " run: the service is there");
    }
    if (onCi()) {
      return ConditionEvaluationResult.enabled(
          what + " run on CI although " + problem.get() + " (they will fail)");
    }
    return ConditionEvaluationResult.disabled(
        what + " skipped: " + problem.get() + ". To run them: " + howToRun);
  }
}
