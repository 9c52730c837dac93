package io.jimflow.cli.data;

import io.jimflow.cli.shared.ConnectionOptions;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.exampledata.DataGenerationResult;
import io.jimflow.exampledata.ExamplePeople;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jimflow data generate}: writes an HR System CSV of generated people, here or, with {@code
 * --on-worker}, as a workflow on a worker (its progress shows as heartbeat details in the Temporal
 * UI).
 */
@Command(
    name = "generate",
    description = {
      "Writes N generated people as the HR System's CSV file (streams: any N, little memory).",
      "The same --seed and --people always give the same file.",
      "With --on-worker a worker writes it (as a workflow: progress in the Temporal UI); --out is",
      "then relative to the worker's jimflow home and must lie below its data/ folder."
    },
    mixinStandardHelpOptions = true)
public class DataGenerateCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin public ConnectionOptions connection;

  @Option(
      names = "--on-worker",
      description = "Generate on a worker, as a workflow with heartbeat progress.")
  public boolean onWorker;

  @Option(names = "--people", required = true, description = "How many people (1 or more).")
  public long people;

  @Option(
      names = "--out",
      defaultValue = "data/hr.csv",
      description = "The file to write (default: ${DEFAULT-VALUE}).")
  public Path out;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "Random seed (default: ${DEFAULT-VALUE}).")
  public long seed;

  @Option(names = "--no-progress", description = "Do not draw the progress bar.")
  public boolean noProgress;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (people < 1) {
      err.println("--people must be 1 or more, not " + people);
      return ExitCodes.BAD_INPUT;
    }
    if (onWorker) {
      return generateOnWorker(err);
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
        new ExamplePeople(seed).write(people, writer, bar::update);
      }
      bar.done();
      Files.move(
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      err.println("Cannot write " + out + ": " + e.getMessage());
      deleteQuietly(temporary);
      return ExitCodes.ENDED_BADLY;
    }
    spec.commandLine().getOut().printf(Locale.ROOT, "Wrote %,d people to %s%n", people, out);
    return ExitCodes.OK;
  }

  private int generateOnWorker(PrintWriter err) {
    if (people > Integer.MAX_VALUE) {
      err.println("--people must be at most " + Integer.MAX_VALUE + " with --on-worker");
      return ExitCodes.BAD_INPUT;
    }
    String user = System.getProperty("user.name", "unknown");
    try (JimflowClient client = connection.connect()) {
      String workflowId =
          client
              .maintenance()
              .startDataGeneration(
                  (int) people,
                  out.toString(),
                  seed,
                  new Initiator(InitiatorType.User, user, user));
      spec.commandLine().getOut().println(workflowId);
      spec.commandLine().getOut().flush();
      DataGenerationResult result = client.maintenance().awaitDataGeneration(workflowId);
      spec.commandLine()
          .getOut()
          .printf(
              Locale.ROOT,
              "Wrote %,d people to %s on the worker%n",
              result.peopleWritten(),
              result.outFile());
      return ExitCodes.OK;
    }
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

  /**
   * Progress on stderr: on a terminal a one-line bar redrawn at each whole percent; elsewhere (a
   * log file, a pipe) a plain line at most every {@link #LINE_INTERVAL}, and one at the end.
   */
  static final class ProgressBar {
    static final java.time.Duration LINE_INTERVAL = java.time.Duration.ofSeconds(5);
    private static final int WIDTH = 40;
    private final PrintWriter err;
    private final long total;
    private final boolean enabled;
    private final boolean terminal;
    private final java.util.function.LongSupplier nanoTime;
    private int shown = -1;
    private long written;
    private long lastLineAt;

    ProgressBar(PrintWriter err, long total, boolean enabled) {
      this(err, total, enabled, stderrIsTerminal(), System::nanoTime);
    }

    ProgressBar(
        PrintWriter err,
        long total,
        boolean enabled,
        boolean terminal,
        java.util.function.LongSupplier nanoTime) {
      this.err = err;
      this.total = total;
      this.enabled = enabled;
      this.terminal = terminal;
      this.nanoTime = nanoTime;
      this.lastLineAt = nanoTime.getAsLong();
    }

    /**
     * Whether stderr is a terminal: {@code ./jimflow} tells ({@code -Djimflow.stderr.tty});
     * otherwise whether the JVM has a console at all.
     */
    static boolean stderrIsTerminal() {
      String told = System.getProperty("jimflow.stderr.tty");
      return told != null ? Boolean.parseBoolean(told) : System.console() != null;
    }

    void update(long written) {
      this.written = written;
      if (!enabled) {
        return;
      }
      if (!terminal) {
        long now = nanoTime.getAsLong();
        if (now - lastLineAt >= LINE_INTERVAL.toNanos()) {
          lastLineAt = now;
          line();
        }
        return;
      }
      int percent = (int) (written * 100 / total);
      if (percent == shown) {
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
      if (!enabled) {
        return;
      }
      if (terminal) {
        err.println();
      } else {
        line();
      }
    }

    private void line() {
      err.printf(
          Locale.ROOT, "%,d/%,d people (%d%%)%n", written, total, (int) (written * 100 / total));
      err.flush();
    }
  }
}
