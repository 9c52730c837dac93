package io.jimflow.e2e;

import io.jimflow.testing.Requirement;
import io.jimflow.worker.dev.TemporalCli;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives topology tests a {@link TopologyEnvironment}: one for the whole run, shared by every test
 * class that uses this extension, closed when the run ends.
 *
 * <p>It needs Go (to build the Temporal server once; not needed once it is built) and PostgreSQL.
 * Where one is missing the tests are skipped with one line saying what is missing (the run's
 * summary prints it), unless {@code CI=true}, where they run and fail instead: CI installs both.
 */
public final class TopologyExtension implements ParameterResolver, ExecutionCondition {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(TopologyExtension.class);

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    List<String> missing = missingPrerequisites();
    return Requirement.evaluate(
        "Topology e2e tests (official Temporal server on PostgreSQL, three workers)",
        missing.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", missing)),
        "install Go 1.21+ and run scripts/start-test-postgres.sh, or set CI=true");
  }

  private static List<String> missingPrerequisites() {
    List<String> missing = new ArrayList<>();
    Optional<Path> home = TemporalCli.projectHome();
    if (home.isEmpty()) {
      missing.add("no jimflow checkout found above " + Path.of("").toAbsolutePath());
    } else if (!serverBuilt(home.get()) && findGo().isEmpty()) {
      missing.add("no Temporal server built in .tools/temporal-server and no Go to build it");
    }
    TopologyEnvironment.PostgresSettings postgres =
        TopologyEnvironment.PostgresSettings.fromEnvironment();
    try (Connection ignored = postgres.connect()) {
      // reachable
    } catch (SQLException e) {
      missing.add("no PostgreSQL at " + postgres.url());
    }
    return missing;
  }

  /** Whether scripts/start-temporal-server.sh has built the version it pins before. */
  private static boolean serverBuilt(Path home) {
    try {
      Matcher pinned =
          Pattern.compile("TEMPORAL_SERVER_VERSION=\"([^\"]+)\"")
              .matcher(Files.readString(home.resolve("scripts/start-temporal-server.sh")));
      return pinned.find()
          && Files.isExecutable(
              home.resolve(".tools/temporal-server/" + pinned.group(1) + "/bin/temporal-server"));
    } catch (IOException e) {
      return false;
    }
  }

  private static Optional<Path> findGo() {
    Stream<Path> onPath =
        Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            .filter(dir -> !dir.isBlank())
            .map(dir -> Path.of(dir, "go"));
    return Stream.concat(onPath, Stream.of(Path.of("/usr/local/go/bin/go")))
        .filter(Files::isExecutable)
        .findFirst();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TopologyEnvironment.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(
            "environment", key -> new Resource(TopologyEnvironment.start()), Resource.class)
        .environment();
  }

  /** Closes the environment when the root context (the whole run) closes. */
  private record Resource(TopologyEnvironment environment)
      implements ExtensionContext.Store.CloseableResource {
    @Override
    public void close() {
      environment.close();
    }
  }
}
