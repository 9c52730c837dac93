package io.jimflow.worker;

import io.jimflow.common.SearchAttributeSetup;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * The search attribute check once more, before Spring starts: a mistyped attribute can never be
 * fixed by the worker, and starting the whole application context first only to refuse costs tens
 * of seconds on a busy machine. It looks only where it can be sure to ask the same server as the
 * worker will (plain connection; address and namespace from arguments or the environment) and
 * decides only the mistyped case; anything else, including a server that does not answer, is left
 * to {@link SearchAttributeCheck}.
 */
final class EarlySearchAttributeCheck {

  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(5);

  private EarlySearchAttributeCheck() {}

  /** The report when the server answered and some attribute is mistyped; empty otherwise. */
  static Optional<Failure> run(String[] args, Map<String, String> env) {
    if (securedOrElsewhere(args, env)) {
      return Optional.empty();
    }
    String target =
        setting(
            args, env, "spring.temporal.connection.target", "TEMPORAL_ADDRESS", "127.0.0.1:7233");
    String namespace =
        setting(args, env, "spring.temporal.namespace", "TEMPORAL_NAMESPACE", "default");
    WorkflowServiceStubs stubs =
        WorkflowServiceStubs.newServiceStubs(
            WorkflowServiceStubsOptions.newBuilder()
                .setTarget(target)
                .setRpcTimeout(ANSWER_WITHIN)
                .build());
    try {
      SearchAttributeSetup.Report report = new SearchAttributeSetup(stubs, namespace).inspect();
      if (report.mistyped().isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Failure(report, "--address " + target));
    } catch (RuntimeException notAnswering) {
      return Optional.empty();
    } finally {
      stubs.shutdownNow();
    }
  }

  record Failure(SearchAttributeSetup.Report report, String connectionArgs) {
    String message() {
      return "jimflow worker: cannot start, jimflow's search attributes are not ready:\n  "
          + String.join("\n  ", report.problems())
          + "\nFix:\n  "
          + String.join("\n  ", report.fixes(connectionArgs));
    }
  }

  /** TLS, API keys, other config sources: the Spring-side check decides there. */
  private static boolean securedOrElsewhere(String[] args, Map<String, String> env) {
    for (String file : new String[] {"application", "config/application"}) {
      for (String extension : new String[] {".yaml", ".yml", ".properties"}) {
        if (java.nio.file.Files.exists(java.nio.file.Path.of(file + extension))) {
          return true;
        }
      }
    }
    return Arrays.stream(args)
            .anyMatch(
                a ->
                    a.startsWith("--spring.temporal.connection.")
                            && !a.startsWith("--spring.temporal.connection.target=")
                        || a.startsWith("--spring.config")
                        || a.startsWith("--spring.profiles"))
        || env.keySet().stream()
            .anyMatch(
                k ->
                    k.startsWith("SPRING_TEMPORAL_CONNECTION_")
                            && !k.equals("SPRING_TEMPORAL_CONNECTION_TARGET")
                        || k.startsWith("SPRING_CONFIG")
                        || k.equals("SPRING_PROFILES_ACTIVE")
                        || k.equals("SPRING_APPLICATION_JSON"));
  }

  private static String setting(
      String[] args, Map<String, String> env, String property, String variable, String fallback) {
    String prefix = "--" + property + "=";
    for (String arg : args) {
      if (arg.startsWith(prefix)) {
        return arg.substring(prefix.length());
      }
    }
    String springVariable = property.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
    if (env.get(springVariable) != null) {
      return env.get(springVariable);
    }
    return env.getOrDefault(variable, fallback);
  }
}
