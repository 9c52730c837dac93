package io.jimflow.connector.csv;

/**
 * How a connected system's CSV files are written: UTF-8 (a byte order mark is accepted on import),
 * a header row, quoted fields as RFC 4180 has them.
 *
 * @param delimiter the field separator, ',' by default
 */
public record CsvSettings(char delimiter) {

  public static final CsvSettings DEFAULT = new CsvSettings(',');
}
