package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import io.jimflow.common.SearchAttributeSetup;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * A namespace without jimflow's search attributes: {@code jimflow setup} and the worker's check.
 */
@ExtendWith(TemporalDevServerExtension.class)
class SearchAttributesIT {

  @Test
  void setupRegistersEveryAttributeOnceAndThenReportsThemPresent(E2eEnvironment env) {
    String namespace = env.newBareNamespace("setup");

    Cli first = setup(env, namespace);
    Cli second = setup(env, namespace);

    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out())
        .contains(
            "registered  JimflowScheduleId (Keyword)",
            "registered  JimflowStepGroup (Int)",
            "registered  JimflowWorkItemKind (Keyword)");
    assertThat(second.exit()).isZero();
    assertThat(second.out()).doesNotContain("registered").contains("present     JimflowStatus");
    assertThat(new SearchAttributeSetup(env.stubs(), namespace).inspect().ready()).isTrue();
  }

  @Test
  void aWorkerRefusesANamespaceWhereAnAttributeHasTheWrongTypeAndNamesTheFix(E2eEnvironment env) {
    String namespace = env.newBareNamespace("mistyped");
    registerAsKeyword(env, namespace, "JimflowStepGroup");

    Cli setup = setup(env, namespace);
    WorkerProcess worker =
        env.launchWorker(
            "mistyped",
            Map.of(
                "TEMPORAL_NAMESPACE",
                namespace,
                // Registering what is missing never changes what is there with another type.
                "JIMFLOW_WORKER_REGISTER_SEARCH_ATTRIBUTES",
                "true"));
    int exit = worker.awaitExit(Duration.ofSeconds(150));

    assertThat(setup.exit()).isEqualTo(JimflowCli.ENDED_BADLY);
    assertThat(setup.err())
        .contains("JimflowStepGroup is registered as Keyword, jimflow needs Int")
        .contains("temporal operator search-attribute remove")
        .contains("./jimflow setup --address " + env.target() + " --namespace " + namespace);
    assertThat(exit).as(worker.logTail(40)).isNotIn(0, -1);
    assertThat(worker.logTail(40))
        .contains("search attribute JimflowStepGroup is registered as Keyword, jimflow needs Int")
        .contains("--name JimflowStepGroup")
        .contains("./jimflow setup --address " + env.target() + " --namespace " + namespace)
        .doesNotContain("\tat io.jimflow");
  }

  private static void registerAsKeyword(E2eEnvironment env, String namespace, String name) {
    OperatorServiceStubs operator =
        OperatorServiceStubs.newServiceStubs(
            OperatorServiceStubsOptions.newBuilder()
                .setTarget(env.target())
                .validateAndBuildWithDefaults());
    try {
      operator
          .blockingStub()
          .addSearchAttributes(
              AddSearchAttributesRequest.newBuilder()
                  .setNamespace(namespace)
                  .putSearchAttributes(name, IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD)
                  .build());
    } finally {
      operator.shutdownNow();
    }
  }

  private static Cli setup(E2eEnvironment env, String namespace) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    int exit = cli.execute("setup", "--address", env.target(), "--namespace", namespace);
    return new Cli(exit, out.toString(), err.toString());
  }

  private record Cli(int exit, String out, String err) {}
}
