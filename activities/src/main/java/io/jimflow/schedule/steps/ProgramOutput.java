package io.jimflow.schedule.steps;

import io.jimflow.secrets.activities.SecretMasker;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A program's output tail (at most {@code limit} characters, secrets masked) and what it reported
 * through the line protocol ({@code ::progress N/M}, {@code ::checkpoint TOKEN}).
 */
final class ProgramOutput {

  private static final Pattern PROGRESS =
      Pattern.compile("^::progress\\s+(\\d+)(?:\\s*/\\s*(\\d+))?\\s*$");
  private static final Pattern CHECKPOINT = Pattern.compile("^::checkpoint\\s+(\\S.*?)\\s*$");

  private final int limit;
  private final SecretMasker masker;
  private final StringBuilder text = new StringBuilder();
  private long dropped;
  long processed;
  long total = -1;
  String checkpoint;

  ProgramOutput(int limit, SecretMasker masker) {
    this.limit = limit;
    this.masker = masker;
  }

  /**
   * One line of the program's output; {@code droppedBefore} characters of it before {@code raw}
   * were not kept (a line longer than the limit), so {@code raw} may begin inside a secret.
   */
  synchronized void line(String raw, long droppedBefore, boolean stdout) {
    String line = droppedBefore == 0 ? masker.mask(raw) : masker.maskAfterCut(raw);
    if (droppedBefore > 0) {
      // Half the limit, so that the marker and what follows the line stay in the tail.
      int keep = Math.min(line.length(), Math.max(1, limit / 2));
      line =
          "[… "
              + (droppedBefore + line.length() - keep)
              + " characters of this line truncated]"
              + line.substring(line.length() - keep);
    } else if (stdout) {
      Matcher progress = PROGRESS.matcher(line);
      if (progress.matches()) {
        processed = Long.parseLong(progress.group(1));
        total = progress.group(2) == null ? -1 : Long.parseLong(progress.group(2));
        return;
      }
      Matcher checkpointLine = CHECKPOINT.matcher(line);
      if (checkpointLine.matches()) {
        checkpoint = checkpointLine.group(1);
        return;
      }
    }
    text.append(stdout ? "" : "stderr: ").append(line).append('\n');
    if (text.length() > limit) {
      int cut = text.length() - limit;
      text.delete(0, cut);
      dropped += cut;
    }
  }

  synchronized String text() {
    String kept = text.toString().stripTrailing();
    return dropped == 0 ? kept : "[… " + dropped + " characters of output truncated]\n" + kept;
  }
}
