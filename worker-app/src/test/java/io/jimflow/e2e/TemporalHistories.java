package io.jimflow.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.worker.dev.TemporalCli;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Histories as an operator reads them with the Temporal CLI. */
final class TemporalHistories {

  private static final Pattern DATA = Pattern.compile("\"data\":\\s*\"([A-Za-z0-9+/=]*)\"");

  private TemporalHistories() {}

  /**
   * The history as {@code temporal workflow show -o json} prints it (with {@code flags}, e.g. a
   * codec endpoint), followed by every payload's data decoded from base64: what anyone reading the
   * history can see.
   */
  static String showJson(String target, String namespace, String workflowId, String... flags)
      throws Exception {
    List<String> args =
        new ArrayList<>(List.of("workflow", "show", "--workflow-id", workflowId, "-o", "json"));
    args.addAll(List.of(flags));
    String output = temporal(target, namespace, args.toArray(String[]::new));
    StringBuilder readable = new StringBuilder(output);
    Matcher data = DATA.matcher(output);
    while (data.find()) {
      readable
          .append('\n')
          .append(new String(Base64.getDecoder().decode(data.group(1)), StandardCharsets.UTF_8));
    }
    return readable.toString();
  }

  /** Runs the Temporal CLI against {@code namespace}; returns its output. */
  static String temporal(String target, String namespace, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(TemporalCli.locate(TemporalCli.projectHome()).toString());
    command.addAll(List.of(args));
    command.addAll(List.of("--address", target, "--namespace", namespace));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
