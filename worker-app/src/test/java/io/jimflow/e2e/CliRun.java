package io.jimflow.e2e;

import io.jimflow.cli.JimflowCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * One {@code jimflow} command run in-process against a test's server and namespace: its exit code
 * and what it printed.
 */
record CliRun(int exit, String out, String err) {

  static CliRun of(E2eEnvironment env, String namespace, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = JimflowCli.commandLine();
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    List<String> full = new ArrayList<>(List.of(args));
    full.addAll(List.of("--address", env.target(), "--namespace", namespace));
    return new CliRun(cli.execute(full.toArray(String[]::new)), out.toString(), err.toString());
  }
}
