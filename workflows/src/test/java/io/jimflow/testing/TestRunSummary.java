package io.jimflow.testing;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Prints, at the end of each module's test run, how many tests passed and failed and which groups
 * were skipped and why, so a reader of {@code ./mvnw verify} knows what was and was not checked.
 *
 * <p>Registered for every module through {@code META-INF/services} in the shared test jar. The
 * run's name comes from the system property {@code jimflow.testGroup} (set per plugin in the root
 * pom) and the module's directory.
 */
public final class TestRunSummary implements TestExecutionListener {

  private TestPlan plan;
  private int passed;
  private int failed;
  private final Map<String, List<String>> skippedByReason = new LinkedHashMap<>();

  @Override
  public void testPlanExecutionStarted(TestPlan testPlan) {
    plan = testPlan;
  }

  @Override
  public synchronized void executionSkipped(TestIdentifier test, String reason) {
    long tests =
        test.isTest()
            ? 1
            : plan.getDescendants(test).stream().filter(TestIdentifier::isTest).count();
    skip(reason, name(test) + (test.isTest() ? "" : " (" + tests + " tests)"));
  }

  @Override
  public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
    switch (result.getStatus()) {
      case SUCCESSFUL -> passed += test.isTest() ? 1 : 0;
      case FAILED -> failed += test.isTest() ? 1 : 0;
      case ABORTED ->
          skip(
              result.getThrowable().map(Throwable::getMessage).orElse("aborted"),
              name(test) + (test.isTest() ? "" : " (all tests)"));
    }
  }

  @Override
  public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
    if (passed + failed == 0 && skippedByReason.isEmpty()) {
      return;
    }
    String run =
        Path.of("").toAbsolutePath().getFileName()
            + " "
            + System.getProperty("jimflow.testGroup", "tests");
    PrintStream out = System.out;
    out.println();
    out.printf(
        "[jimflow tests] %s: %d passed, %d failed, %d skipped%n",
        run, passed, failed, skippedByReason.values().stream().mapToInt(List::size).sum());
    skippedByReason.forEach(
        (reason, what) ->
            out.printf("[jimflow tests]   SKIPPED %s: %s%n", String.join(", ", what), reason));
    out.flush();
  }

  private void skip(String reason, String what) {
    skippedByReason.computeIfAbsent(reason, r -> new ArrayList<>()).add(what);
  }

  private static String name(TestIdentifier test) {
    Optional<String> className =
        test.getSource()
            .filter(ClassSource.class::isInstance)
            .map(s -> ((ClassSource) s).getJavaClass().getSimpleName());
    return className.orElse(test.getLegacyReportingName());
  }
}
