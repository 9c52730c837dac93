package io.jimflow.schedule.steps;

import java.io.IOException;
import java.io.Reader;

/**
 * Splits a program's output into lines while reading it in fixed chunks, so that no line, however
 * long, is ever held whole: of a line longer than {@code maxLine} characters only its last {@code
 * maxLine} are kept, and how many were dropped is reported with it. A line ends at {@code \n},
 * {@code \r\n} or {@code \r}; the text after the last line break is a line too.
 */
final class BoundedLines {

  /** Receives each line: its (tail of) text and how many characters before it were dropped. */
  interface Sink {
    void line(String text, long dropped);
  }

  static final int CHUNK = 8192;

  private BoundedLines() {}

  /**
   * Reads {@code in} to its end. At most {@code 2 * maxLine + CHUNK} characters are held at once.
   */
  static void read(Reader in, int maxLine, Sink sink) throws IOException {
    char[] chunk = new char[CHUNK];
    StringBuilder line = new StringBuilder(Math.min(maxLine, 1024));
    long dropped = 0;
    boolean afterCarriageReturn = false;
    boolean open = false;
    int n;
    while ((n = in.read(chunk)) != -1) {
      for (int i = 0; i < n; i++) {
        char c = chunk[i];
        if (c == '\n' && afterCarriageReturn) {
          afterCarriageReturn = false;
          continue;
        }
        afterCarriageReturn = c == '\r';
        if (c == '\n' || c == '\r') {
          sink.line(tail(line, maxLine), dropped + Math.max(0, line.length() - maxLine));
          line.setLength(0);
          dropped = 0;
          open = false;
          continue;
        }
        line.append(c);
        open = true;
        if (line.length() >= 2 * maxLine) {
          int cut = line.length() - maxLine;
          line.delete(0, cut);
          dropped += cut;
        }
      }
    }
    if (open) {
      sink.line(tail(line, maxLine), dropped + Math.max(0, line.length() - maxLine));
    }
  }

  private static String tail(StringBuilder line, int maxLine) {
    return line.length() <= maxLine
        ? line.toString()
        : line.substring(line.length() - maxLine, line.length());
  }
}
