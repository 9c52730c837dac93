package io.jimflow.connector.csv;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * How a connected system's CSV files are written: a header row, quoted fields as RFC 4180 has them,
 * in one character encoding (UTF-8 unless the system names another; a UTF-8 byte order mark is
 * accepted on import).
 *
 * @param delimiter the field separator, ',' by default
 * @param encoding how the files' bytes are read and written; bytes that are not valid in it are
 *     errors, never replaced
 */
public record CsvSettings(char delimiter, Charset encoding) {

  public static final CsvSettings DEFAULT = new CsvSettings(',', StandardCharsets.UTF_8);

  public CsvSettings(char delimiter) {
    this(delimiter, StandardCharsets.UTF_8);
  }
}
