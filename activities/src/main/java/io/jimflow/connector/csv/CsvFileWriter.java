package io.jimflow.connector.csv;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import io.jimflow.connector.ConnectorException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes a CSV file atomically: rows go to a temporary file beside the target, which replaces the
 * target only once complete, so a reader never sees half a file and a crash leaves the old one.
 */
public final class CsvFileWriter implements AutoCloseable {

  private final Path target;
  private final Path temporary;
  private final List<String> header;
  private final Charset encoding;
  private final FileChannel channel;
  private final CsvWriter writer;
  private boolean committed;

  private CsvFileWriter(Path target, List<String> header, CsvSettings settings) throws IOException {
    this.target = target.toAbsolutePath();
    this.header = List.copyOf(header);
    this.encoding = settings.encoding();
    Path directory = this.target.getParent();
    Files.createDirectories(directory);
    // Not Files.createTempFile: its owner-only permissions would end up on the target.
    this.temporary =
        directory.resolve("." + this.target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    this.channel =
        FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW);
    OutputStream out = Channels.newOutputStream(channel);
    // A character the file's encoding cannot hold fails the write instead of becoming '?'.
    Writer text =
        new OutputStreamWriter(
            out,
            settings
                .encoding()
                .newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT));
    this.writer =
        CsvWriter.builder()
            .fieldSeparator(settings.delimiter())
            .lineDelimiter(LineDelimiter.LF)
            .build(text);
    writer.writeRecord(this.header);
  }

  /**
   * Starts a new version of {@code target} with this header; nothing changes until {@link
   * #commit()}.
   */
  public static CsvFileWriter create(Path target, List<String> header, CsvSettings settings) {
    try {
      return new CsvFileWriter(target, header, settings);
    } catch (IOException e) {
      throw new ConnectorException(
          "CSV file " + target + " cannot be written: " + e.getMessage(), e);
    }
  }

  /**
   * The first of the header's columns whose value in {@code attributes} the encoding cannot hold,
   * or null when the row can be written: a caller leaves such a row out (one error) instead of
   * failing the whole file.
   */
  public static String unwritableColumn(
      List<String> header, Charset encoding, Map<String, String> attributes) {
    CharsetEncoder encoder = encoding.newEncoder();
    for (String column : header) {
      String value = attributes.get(column);
      if (value != null && !encoder.canEncode(value)) {
        return column;
      }
    }
    return null;
  }

  /**
   * Writes one row; attributes not in the header are left out, missing ones are empty, a value a
   * spreadsheet would run as a formula gets a quote in front ({@link CsvFormulas}).
   */
  public void write(Map<String, String> attributes) {
    String[] fields = new String[header.size()];
    for (int i = 0; i < fields.length; i++) {
      String value = attributes.get(header.get(i));
      fields[i] = value == null ? "" : CsvFormulas.neutralise(value);
    }
    try {
      writer.writeRecord(fields);
    } catch (UncheckedIOException e) {
      throw failure("cannot be written", e.getCause());
    }
  }

  private ConnectorException failure(String what, IOException e) {
    if (e instanceof CharacterCodingException) {
      return new ConnectorException(
          "CSV file "
              + target
              + " "
              + what
              + ": a value holds a character that "
              + encoding.name()
              + " (the connected system's encoding) cannot hold",
          e);
    }
    return new ConnectorException("CSV file " + target + " " + what + ": " + e.getMessage(), e);
  }

  /** Replaces the target with what was written. */
  public void commit() {
    try {
      writer.flush();
      channel.force(true);
      writer.close();
      try {
        Files.move(
            temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
      }
      committed = true;
    } catch (IOException e) {
      throw failure("cannot be replaced", e);
    }
  }

  /** Discards the temporary file unless committed. */
  @Override
  public void close() {
    if (committed) {
      return;
    }
    try {
      writer.close();
    } catch (IOException | RuntimeException ignored) {
      // The temporary file is removed below either way.
    }
    try {
      Files.deleteIfExists(temporary);
    } catch (IOException e) {
      throw new ConnectorException("temporary file " + temporary + " cannot be removed", e);
    }
  }
}
