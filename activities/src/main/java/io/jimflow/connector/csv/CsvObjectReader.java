package io.jimflow.connector.csv;

import de.siegmar.fastcsv.reader.CsvParseException;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import io.jimflow.connector.ConnectorException;
import io.jimflow.connector.ImportRow;
import io.jimflow.connector.ObjectSource;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Streams the objects of a CSV file page by page; memory use depends on the page size, not on the
 * file's size.
 *
 * <p>Rows that cannot become objects (wrong number of fields, bytes not valid in the file's
 * encoding, no anchor) come back as error rows and reading goes on. A file that is missing,
 * unreadable, empty or has no anchor column throws {@link ConnectorException} when opened.
 */
public final class CsvObjectReader implements ObjectSource {

  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final Path file;
  private final String anchorAttribute;
  private final CsvReader<CsvRecord> reader;
  private final Iterator<CsvRecord> records;
  private final List<String> header;
  private final int anchorIndex;
  private final Charset encoding;
  private long position;

  private CsvObjectReader(Path file, String anchorAttribute, CsvSettings settings) {
    this.file = file;
    this.anchorAttribute = anchorAttribute;
    this.encoding = settings.encoding();
    if (!Files.isRegularFile(file)) {
      throw new ConnectorException("CSV file " + file + " does not exist or is not a file");
    }
    if (!Files.isReadable(file)) {
      throw new ConnectorException("CSV file " + file + " is not readable");
    }
    try {
      this.reader =
          CsvReader.builder()
              .fieldSeparator(settings.delimiter())
              .skipEmptyLines(true)
              .ignoreDifferentFieldCount(true)
              .ofCsvRecord(decoding(file, encoding));
    } catch (IOException e) {
      throw new ConnectorException("CSV file " + file + " cannot be opened: " + e.getMessage(), e);
    }
    this.records = reader.iterator();
    CsvRecord first = nextRecord();
    if (first == null) {
      close();
      throw new ConnectorException("CSV file " + file + " is empty: it needs a header row");
    }
    this.header = List.copyOf(first.getFields());
    if (header.stream().anyMatch(CsvObjectReader::undecodable)) {
      close();
      throw new ConnectorException(
          "CSV file "
              + file
              + " line "
              + first.getStartingLineNumber()
              + " (the header) holds bytes that are not valid "
              + encoding.name());
    }
    this.anchorIndex = header.indexOf(anchorAttribute);
    if (anchorIndex < 0) {
      close();
      throw new ConnectorException(
          "CSV file "
              + file
              + " has no column '"
              + anchorAttribute
              + "' for the anchor (header: "
              + String.join(", ", header)
              + ")");
    }
  }

  /**
   * Opens a file and reads its header.
   *
   * @param anchorAttribute the column that identifies an object
   */
  public static CsvObjectReader open(Path file, String anchorAttribute, CsvSettings settings) {
    return new CsvObjectReader(file, anchorAttribute, settings);
  }

  public List<String> header() {
    return header;
  }

  @Override
  public void skip(long count) {
    while (position < count && nextRecord() != null) {
      position++;
    }
  }

  @Override
  public List<ImportRow> nextPage(int size) {
    List<ImportRow> page = new ArrayList<>(Math.min(size, 10_000));
    CsvRecord record;
    while (page.size() < size && (record = nextRecord()) != null) {
      page.add(toRow(++position, record));
    }
    return page;
  }

  private ImportRow toRow(long rowPosition, CsvRecord record) {
    String where = file.getFileName() + " line " + record.getStartingLineNumber();
    if (record.getFieldCount() != header.size()) {
      return new ImportRow(
          rowPosition,
          where,
          // The anchor's column when the row has it: that object is still in the source, only
          // unreadable, so a full import keeps it as it was instead of taking it for absent.
          anchorIndex < record.getFieldCount() ? soundAnchor(record.getField(anchorIndex)) : null,
          null,
          "WrongColumnCount",
          where + " has " + record.getFieldCount() + " fields, the header has " + header.size(),
          where);
    }
    for (int i = 0; i < header.size(); i++) {
      if (undecodable(record.getField(i))) {
        String anchor = record.getField(anchorIndex);
        return new ImportRow(
            rowPosition,
            where,
            // Known when the anchor itself is fine: the object is not absent, only unreadable.
            soundAnchor(anchor),
            null,
            "InvalidBytes",
            where
                + ": "
                + header.get(i)
                + " holds bytes that are not valid "
                + encoding.name()
                + " (or the replacement character U+FFFD); the connected system's encoding"
                + " setting names the file's encoding",
            where);
      }
    }
    String anchor = record.getField(anchorIndex);
    if (anchor.isBlank()) {
      return new ImportRow(
          rowPosition,
          where,
          null,
          null,
          "MissingAnchor",
          where + " has no " + anchorAttribute,
          where);
    }
    Map<String, String> attributes = new HashMap<>(header.size() * 2);
    for (int i = 0; i < header.size(); i++) {
      attributes.put(header.get(i), CsvFormulas.restore(record.getField(i)));
    }
    return new ImportRow(rowPosition, anchor, anchor, attributes, null, null, where);
  }

  /** An anchor read from a row in error, or null when it is blank or unreadable itself. */
  private static String soundAnchor(String anchor) {
    return anchor.isBlank() || undecodable(anchor) ? null : anchor;
  }

  /**
   * The file's text: bytes not valid in the encoding become U+FFFD (which the rows holding them are
   * refused for) instead of ending the read; a UTF-8 byte order mark is skipped.
   */
  private static Reader decoding(Path file, Charset encoding) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file));
    try {
      if (encoding.equals(StandardCharsets.UTF_8)) {
        in.mark(BOM.length);
        byte[] start = in.readNBytes(BOM.length);
        if (!Arrays.equals(start, BOM)) {
          in.reset();
        }
      }
      return new InputStreamReader(
          in,
          encoding
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPLACE)
              .onUnmappableCharacter(CodingErrorAction.REPLACE)
              .replaceWith("\uFFFD"));
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * Whether a value holds U+FFFD: what decoding puts where the bytes are not valid in the file's
   * encoding. A U+FFFD written in the file itself is refused too: it is the mark of an earlier such
   * replacement, and no identity's name holds it.
   */
  private static boolean undecodable(String value) {
    return value.indexOf('\uFFFD') >= 0;
  }

  private CsvRecord nextRecord() {
    try {
      return records.hasNext() ? records.next() : null;
    } catch (CsvParseException | UncheckedIOException e) {
      throw new ConnectorException(
          "CSV file " + file + " cannot be read after object " + position + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    try {
      reader.close();
    } catch (IOException e) {
      throw new ConnectorException("CSV file " + file + " cannot be closed: " + e.getMessage(), e);
    }
  }
}
