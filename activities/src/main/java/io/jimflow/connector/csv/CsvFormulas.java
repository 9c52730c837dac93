package io.jimflow.connector.csv;

/**
 * Keeps exported cells from running as spreadsheet formulas (CSV injection): a value that begins
 * with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return is written with a
 * single quote in front, which spreadsheets take as "text follows" and do not show. A value that
 * already begins with a quote followed by one of those characters or another quote gets one more,
 * so that reading takes exactly one off and every value comes back as it was written.
 *
 * <p>Reading takes the quote off again ({@link #restore}), as a spreadsheet shows the cell: the
 * confirming import of an export sees the values it exported.
 */
final class CsvFormulas {

  static final char QUOTE = '\'';

  private CsvFormulas() {}

  /** {@code value} as it is written to a CSV file. */
  static String neutralise(String value) {
    if (value == null || value.isEmpty()) {
      return value;
    }
    return marked(value, 0) || (value.charAt(0) == QUOTE && value.length() > 1 && quoted(value, 1))
        ? QUOTE + value
        : value;
  }

  /** A value read from a CSV file, without the quote {@link #neutralise} put in front. */
  static String restore(String value) {
    if (value == null || value.length() < 2 || value.charAt(0) != QUOTE) {
      return value;
    }
    return quoted(value, 1) ? value.substring(1) : value;
  }

  /** Whether the character at {@code i} is a formula start or a quote. */
  private static boolean quoted(String value, int i) {
    return marked(value, i) || value.charAt(i) == QUOTE;
  }

  private static boolean marked(String value, int i) {
    return switch (value.charAt(i)) {
      case '=', '+', '-', '@', '\t', '\r' -> true;
      default -> false;
    };
  }
}
