package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.cli.JimflowCli;
import io.jimflow.exampledata.ExamplePeople;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** {@code jimflow runs list|show|items}: run records of a real sync, read through a worker. */
@ExtendWith(TemporalDevServerExtension.class)
class RunsIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void runRecordsOfASyncAreListedShownAndTheirErrorItemsFound(E2eEnvironment env) throws Exception {
    // Its own namespace, worker and store: the records it reads are the ones this test made.
    namespace = env.newNamespace("runs");
    Path dir = env.newDirectory("runs");
    Map<String, String> workerEnv =
        new java.util.HashMap<>(E2eEnvironment.newStore().environment());
    workerEnv.put("TEMPORAL_NAMESPACE", namespace);
    workerEnv.put("JIMFLOW_DATA_PLANE_BASE_DIRECTORY", dir.toString());
    env.startWorker("runs", workerEnv);
    Path hr = dir.resolve("data/hr.csv");
    Files.createDirectories(hr.getParent());
    try (Writer writer = Files.newBufferedWriter(hr, StandardCharsets.UTF_8)) {
      new ExamplePeople(3L).write(30, writer, n -> {});
      writer.write("E-BROKEN,too,few,columns\n");
    }
    Cli run =
        cli(
            env,
            "start",
            "nightly-hr-sync",
            "-f",
            env.projectHome().resolve("config/schedules.yaml").toString(),
            "--wait");
    // The broken row is an error item: the import ends CompleteWithError and so does the
    // execution, which the CLI reports with exit 1 once every later step has run.
    assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(1);
    assertThat(run.out() + run.err()).contains("ended CompleteWithError");

    Cli list = cli(env, "runs", "list", "--system", "hr", "--json");
    assertThat(list.exit()).as(list.err()).isZero();
    List<JsonNode> records = new ArrayList<>();
    JSON.readTree(list.out()).get("runs").forEach(records::add);
    JsonNode importRecord =
        records.stream()
            .filter(r -> r.get("runProfile").asText().equals("full-import"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no full import record in " + list.out()));
    assertThat(importRecord.get("status").asText()).isEqualTo("CompleteWithError");
    assertThat(importRecord.get("totals").get("added").asLong()).isEqualTo(30);
    assertThat(importRecord.get("totals").get("errors").asLong()).isEqualTo(1);
    String id = importRecord.get("id").asText();

    Cli show = cli(env, "runs", "show", id);
    assertThat(show.exit()).as(show.err()).isZero();
    assertThat(show.out()).contains("Run record " + id + ": CompleteWithError", "errors: 1");
    // Errors first: the broken row's item leads the list.
    assertThat(show.out().lines().filter(l -> l.matches("^\\d+\\s.*")).findFirst().orElse(""))
        .contains("hr.csv line 32", "WrongColumnCount");

    Cli errors = cli(env, "runs", "items", id, "--errors", "--json");
    JsonNode items = JSON.readTree(errors.out()).get("items");
    assertThat(items).hasSize(1);
    assertThat(items.get(0).get("errorType").asText()).isNotBlank();

    Cli missing = cli(env, "runs", "show", "no-such-record");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("no run record with id no-such-record");
  }

  private String namespace;

  private Cli cli(E2eEnvironment env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", namespace));
    return new Cli(cli.execute(full.toArray(String[]::new)), out.toString(), err.toString());
  }

  private record Cli(int exit, String out, String err) {}
}
