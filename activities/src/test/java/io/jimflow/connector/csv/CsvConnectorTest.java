package io.jimflow.connector.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.connector.ConnectorException;
import io.jimflow.connector.ImportRow;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvConnectorTest {

  @TempDir Path dir;

  Path file(String name, String content) throws IOException {
    Path path = dir.resolve(name);
    Files.writeString(path, content, StandardCharsets.UTF_8);
    return path;
  }

  static List<ImportRow> readAll(CsvObjectReader reader, int pageSize) {
    List<ImportRow> rows = new ArrayList<>();
    List<ImportRow> page;
    while (!(page = reader.nextPage(pageSize)).isEmpty()) {
      assertThat(page.size()).isLessThanOrEqualTo(pageSize);
      rows.addAll(page);
    }
    return rows;
  }

  @Test
  void quotedFieldsWithDelimitersQuotesAndLineBreaksAreRead() throws IOException {
    Path hr =
        file(
            "hr.csv",
            "employeeId,displayName,title\nE1,\"Lovelace, Ada\",\"says \"\"hi\"\"\nand more\"\nE2,Bob,Clerk\n");
    try (CsvObjectReader reader = CsvObjectReader.open(hr, "employeeId", CsvSettings.DEFAULT)) {
      List<ImportRow> rows = readAll(reader, 1);
      assertThat(rows).extracting(ImportRow::anchor).containsExactly("E1", "E2");
      assertThat(rows.get(0).attributes())
          .containsEntry("displayName", "Lovelace, Ada")
          .containsEntry("title", "says \"hi\"\nand more");
      assertThat(rows).extracting(ImportRow::position).containsExactly(1L, 2L);
    }
  }

  @Test
  void aByteOrderMarkDoesNotBecomePartOfTheFirstColumnName() throws IOException {
    Path hr = file("bom.csv", "\uFEFFemployeeId;name\nE1;Zoë\n");
    try (CsvObjectReader reader = CsvObjectReader.open(hr, "employeeId", new CsvSettings(';'))) {
      assertThat(reader.header()).containsExactly("employeeId", "name");
      assertThat(readAll(reader, 10))
          .singleElement()
          .satisfies(
              row ->
                  assertThat(row.attributes())
                      .containsExactlyInAnyOrderEntriesOf(
                          Map.of("employeeId", "E1", "name", "Zoë")));
    }
  }

  @Test
  void bytesNotValidInTheEncodingMakeThatRowAnErrorNeverAReplacementCharacter() throws IOException {
    Path hr = dir.resolve("latin.csv");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes("employeeId,name\nE1,Ada\n".getBytes(StandardCharsets.UTF_8));
    // "Zoë" as ISO-8859-1 writes it: 0xEB alone is not UTF-8.
    bytes.writeBytes(new byte[] {'E', '2', ',', 'Z', 'o', (byte) 0xEB, '\n'});
    bytes.writeBytes("E3,Cy \uFFFD\nE4,Dee\n".getBytes(StandardCharsets.UTF_8));
    Files.write(hr, bytes.toByteArray());

    try (CsvObjectReader reader = CsvObjectReader.open(hr, "employeeId", CsvSettings.DEFAULT)) {
      List<ImportRow> rows = readAll(reader, 10);
      assertThat(rows)
          .extracting(ImportRow::errorType)
          .containsExactly(null, "InvalidBytes", "InvalidBytes", null);
      assertThat(rows.get(1).reference()).isEqualTo("latin.csv line 3");
      assertThat(rows.get(1).errorMessage())
          .startsWith("latin.csv line 3: name holds bytes that are not valid UTF-8");
      assertThat(rows.get(2).reference()).isEqualTo("latin.csv line 4");
      assertThat(rows)
          .allSatisfy(r -> assertThat(String.valueOf(r.attributes())).doesNotContain("\uFFFD"));
    }

    CsvSettings latin1 = new CsvSettings(',', StandardCharsets.ISO_8859_1);
    try (CsvObjectReader reader = CsvObjectReader.open(hr, "employeeId", latin1)) {
      assertThat(readAll(reader, 10).get(1).attributes()).containsEntry("name", "Zoë");
    }
  }

  @Test
  void aHeaderWithBytesNotValidInTheEncodingRefusesTheFile() throws IOException {
    Path hr = dir.resolve("header.csv");
    Files.write(hr, new byte[] {'i', 'd', ',', 'n', (byte) 0xE9, '\n', 'E', '1', ',', 'x', '\n'});

    assertThatThrownBy(() -> CsvObjectReader.open(hr, "id", CsvSettings.DEFAULT))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("line 1 (the header) holds bytes that are not valid UTF-8");
  }

  @Test
  void aFileIsWrittenInItsEncodingAndACharacterItCannotHoldFailsTheWrite() throws IOException {
    Path out = dir.resolve("out.csv");
    CsvSettings latin1 = new CsvSettings(',', StandardCharsets.ISO_8859_1);
    try (CsvFileWriter writer = CsvFileWriter.create(out, List.of("id", "name"), latin1)) {
      writer.write(Map.of("id", "E1", "name", "Zoë"));
      writer.commit();
    }
    assertThat(Files.readAllBytes(out))
        .isEqualTo("id,name\nE1,Zo\u00EB\n".getBytes(StandardCharsets.ISO_8859_1));

    Path other = dir.resolve("other.csv");
    assertThatThrownBy(
            () -> {
              try (CsvFileWriter writer =
                  CsvFileWriter.create(other, List.of("id", "name"), latin1)) {
                writer.write(Map.of("id", "E1", "name", "Łukasz"));
                writer.commit();
              }
            })
        .isInstanceOf(ConnectorException.class);
    assertThat(other).doesNotExist();
  }

  @Test
  void badRowsBecomeErrorRowsAndReadingGoesOn() throws IOException {
    Path hr = file("bad.csv", "employeeId,name\nE1,Ada\nE2\n,Nobody\nE3,Cy,extra\nE4,Dee\n");
    try (CsvObjectReader reader = CsvObjectReader.open(hr, "employeeId", CsvSettings.DEFAULT)) {
      List<ImportRow> rows = readAll(reader, 2);
      assertThat(rows)
          .extracting(ImportRow::errorType)
          .containsExactly(null, "WrongColumnCount", "MissingAnchor", "WrongColumnCount", null);
      assertThat(rows.get(1).errorMessage())
          .isEqualTo("bad.csv line 3 has 1 fields, the header has 2");
      assertThat(rows.get(2).reference()).isEqualTo("bad.csv line 4");
      assertThat(rows.get(4).anchor()).isEqualTo("E4");
    }
  }

  @Test
  void aResumedReadSkipsTheObjectsBeforeItsCheckpoint() throws IOException {
    Path hr = file("hr.csv", "employeeId\nE1\nE2\nE3\n");
    try (CsvObjectReader reader = CsvObjectReader.open(hr, "employeeId", CsvSettings.DEFAULT)) {
      reader.skip(2);
      assertThat(readAll(reader, 10))
          .extracting(ImportRow::anchor, ImportRow::position)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("E3", 3L));
    }
  }

  @Test
  void aMissingFileFailsWithItsPath() {
    Path missing = dir.resolve("nope.csv");
    assertThatThrownBy(() -> CsvObjectReader.open(missing, "employeeId", CsvSettings.DEFAULT))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("does not exist");
  }

  @Test
  void aFileWithoutTheAnchorColumnFailsNamingTheColumn() throws IOException {
    Path hr = file("hr.csv", "id,name\n1,Ada\n");
    assertThatThrownBy(() -> CsvObjectReader.open(hr, "employeeId", CsvSettings.DEFAULT))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("no column 'employeeId'")
        .hasMessageContaining("id, name");
  }

  @Test
  void anEmptyFileFails() throws IOException {
    Path hr = file("hr.csv", "");
    assertThatThrownBy(() -> CsvObjectReader.open(hr, "employeeId", CsvSettings.DEFAULT))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("is empty");
  }

  @Test
  void anExportedFormulaIsTextInTheFileAndReadsBackAsExported() throws IOException {
    Path target = dir.resolve("directory.csv");
    try (CsvFileWriter writer =
        CsvFileWriter.create(target, List.of("employeeId", "displayName"), CsvSettings.DEFAULT)) {
      writer.write(Map.of("employeeId", "E1", "displayName", "=HYPERLINK(\"http://evil\",\"x\")"));
      writer.write(Map.of("employeeId", "E2", "displayName", "@SUM(A1)"));
      writer.write(Map.of("employeeId", "E3", "displayName", "Ada"));
      writer.commit();
    }

    assertThat(Files.readString(target))
        .isEqualTo(
            "employeeId,displayName\nE1,\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\"\n"
                + "E2,'@SUM(A1)\nE3,Ada\n");
    try (CsvObjectReader reader = CsvObjectReader.open(target, "employeeId", CsvSettings.DEFAULT)) {
      assertThat(readAll(reader, 10))
          .extracting(row -> row.attributes().get("displayName"))
          .containsExactly("=HYPERLINK(\"http://evil\",\"x\")", "@SUM(A1)", "Ada");
    }
  }

  @Test
  void aWrittenFileReplacesTheTargetOnlyOnCommit() throws IOException {
    Path target = file("directory.csv", "employeeId,mail\nOLD,old@example.org\n");
    try (CsvFileWriter writer =
        CsvFileWriter.create(target, List.of("employeeId", "mail"), CsvSettings.DEFAULT)) {
      writer.write(Map.of("employeeId", "E1", "mail", "a,b@example.org"));
      assertThat(Files.readString(target)).contains("OLD");
      writer.commit();
    }
    assertThat(Files.readString(target)).isEqualTo("employeeId,mail\nE1,\"a,b@example.org\"\n");
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void anUncommittedWriteLeavesTheTargetAndNoTemporaryFile() throws IOException {
    Path target = file("directory.csv", "employeeId\nOLD\n");
    try (CsvFileWriter writer =
        CsvFileWriter.create(target, List.of("employeeId"), CsvSettings.DEFAULT)) {
      writer.write(Map.of("employeeId", "E1"));
    }
    assertThat(Files.readString(target)).isEqualTo("employeeId\nOLD\n");
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }
}
