package io.jimflow.cli;

import io.jimflow.data.ExampleDataGenerator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code jimflow data generate}: writes an HR System CSV of generated people. */
@Command(
    name = "generate",
    description = {
      "Writes N generated people as the HR System's CSV file (streams: any N, little memory).",
      "The same --seed and --people always give the same file."
    },
    mixinStandardHelpOptions = true)
public class DataGenerateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--people", required = true, description = "How many people (1 or more).")
  long people;

  @Option(
      names = "--out",
      defaultValue = "data/hr.csv",
      description = "The file to write (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--no-progress", description = "Do not draw the progress bar.")
  boolean noProgress;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (people < 1) {
      err.println("--people must be 1 or more, not " + people);
      return JimflowCli.BAD_INPUT;
    }
    Path target = out.toAbsolutePath();
    Path temporary = null;
    try {
      Files.createDirectories(target.getParent());
      // Not Files.createTempFile: its owner-only permissions would end up on the target.
      temporary =
          target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
      ProgressBar bar = new ProgressBar(err, people, !noProgress);
      try (Writer writer =
          new BufferedWriter(
              Files.newBufferedWriter(
                  temporary, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW),
              1 << 16)) {
        new ExampleDataGenerator(seed).write(people, writer, bar::update);
      }
      bar.done();
      Files.move(
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      err.println("Cannot write " + out + ": " + e.getMessage());
      deleteQuietly(temporary);
      return JimflowCli.ENDED_BADLY;
    }
    spec.commandLine().getOut().printf(Locale.ROOT, "Wrote %,d people to %s%n", people, out);
    return JimflowCli.OK;
  }

  private static void deleteQuietly(Path file) {
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // Best effort: the temporary file is hidden and beside the target.
      }
    }
  }

  /** A one-line bar on stderr, redrawn at each whole percent. */
  static final class ProgressBar {
    private static final int WIDTH = 40;
    private final PrintWriter err;
    private final long total;
    private final boolean enabled;
    private int shown = -1;

    ProgressBar(PrintWriter err, long total, boolean enabled) {
      this.err = err;
      this.total = total;
      this.enabled = enabled;
    }

    void update(long written) {
      int percent = (int) (written * 100 / total);
      if (!enabled || percent == shown) {
        return;
      }
      shown = percent;
      int filled = percent * WIDTH / 100;
      err.printf(
          Locale.ROOT,
          "\r[%s%s] %3d%% %,d/%,d",
          "#".repeat(filled),
          " ".repeat(WIDTH - filled),
          percent,
          written,
          total);
      err.flush();
    }

    void done() {
      if (enabled) {
        err.println();
      }
    }
  }
}
