package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.cli.JimflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/** Two schedules files keep their own schedules: an apply touches only its file's scope. */
@ExtendWith(TemporalDevServerExtension.class)
class ScopedApplyIT {

  @Test
  void filesApplyInTheirOwnScopesAndAnIdOfAnotherScopeIsAConflict(E2eEnvironment env)
      throws Exception {
    String namespace = env.newNamespace("scopes");
    Path dir = env.newDirectory("scopes");
    Path a = Files.writeString(dir.resolve("a.yaml"), file("a-one", "a-two"));
    Path b = Files.writeString(dir.resolve("b.yaml"), file("b-one", "b-two"));
    Path c = Files.writeString(dir.resolve("c.yaml"), file("c-one", "b-two"));

    assertThat(cli(env, namespace, "schedules", "apply", "-f", a.toString()).exit).isZero();
    Cli applyB = cli(env, namespace, "schedules", "apply", "-f", b.toString());
    Cli listed = cli(env, namespace, "schedules", "list");

    assertThat(applyB.out).contains("Scope: b").doesNotContain("delete");
    assertThat(listed.out)
        .contains("a-one", "a-two", "b-one", "b-two", "jimflow-housekeeping (built-in)");
    assertThat(cli(env, namespace, "schedules", "list", "--scope", "a").out)
        .contains("a-one", "a-two")
        .doesNotContain("b-one");

    Files.writeString(a, file("a-one"));
    Cli plan = cli(env, namespace, "schedules", "plan", "-f", a.toString());
    Cli reapply = cli(env, namespace, "schedules", "apply", "-f", a.toString());
    Cli afterReapply = cli(env, namespace, "schedules", "list");

    assertThat(plan.out).contains("Scope: a").contains("- delete a-two");
    assertThat(reapply.out).contains("- delete a-two").doesNotContain("b-one", "b-two");
    assertThat(afterReapply.out).contains("a-one", "b-one", "b-two").doesNotContain("a-two");

    Cli conflict = cli(env, namespace, "schedules", "apply", "-f", c.toString());

    assertThat(conflict.exit).isEqualTo(JimflowCli.BAD_INPUT);
    assertThat(conflict.err).contains("b-two belongs to scope 'b'").contains("Nothing was changed");
    assertThat(cli(env, namespace, "schedules", "list").out).doesNotContain("c-one");
  }

  private static String file(String... ids) {
    StringBuilder yaml = new StringBuilder("schedules:\n");
    for (String id : ids) {
      yaml.append(
          """
            - id: %s
              trigger: {cron: "0 3 * * *", timezone: UTC}
              steps:
                - {index: 0, name: Count, executable: {path: count.sh}}
          """
              .formatted(id));
    }
    return yaml.toString();
  }

  private static Cli cli(E2eEnvironment env, String namespace, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", namespace));
    int exit = cli.execute(full.toArray(String[]::new));
    return new Cli(exit, out.toString(), err.toString());
  }

  private record Cli(int exit, String out, String err) {}
}
