package io.jimflow.dataplane;

import io.jimflow.connector.ImportRow;
import io.jimflow.connector.csv.CsvFileWriter;
import io.jimflow.connector.csv.CsvObjectReader;
import io.jimflow.connector.csv.CsvSettings;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.store.ChangeType;
import io.jimflow.store.ExportStatus;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.Store;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.SyncEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Export to a CSV file: the file's rows with every pending export applied (created, updated,
 * deleted), written atomically. Exporting is idempotent (applying an export twice gives the same
 * row), so a retried attempt simply exports again; exports are marked Exported only after the new
 * file is in place.
 */
final class ExportRunner {

  private final Store store;
  private final PendingExports pendingExports;

  ExportRunner(Store store, PendingExports pendingExports) {
    this.store = store;
    this.pendingExports = pendingExports;
  }

  void run(RunContext run, Path file, ObjectTypeConfig type, CsvSettings settings) {
    List<PendingExportRow> pending =
        store.inTransaction(
            c -> pendingExports.findByStatus(c, run.system.id(), ExportStatus.Pending));
    if (pending.isEmpty()) {
      return;
    }
    run.total = pending.size();
    Map<String, List<PendingExportRow>> byAnchor = new LinkedHashMap<>();
    pending.forEach(e -> byAnchor.computeIfAbsent(e.anchor(), a -> new ArrayList<>()).add(e));
    List<ImportRow> unreadable = new ArrayList<>();
    try (CsvFileWriter writer = CsvFileWriter.create(file, type.attributes(), settings)) {
      if (Files.exists(file)) {
        try (CsvObjectReader reader = CsvObjectReader.open(file, type.anchor(), settings)) {
          List<ImportRow> rows;
          while (!(rows = reader.nextPage(run.profile.pageSize())).isEmpty()) {
            for (ImportRow row : rows) {
              if (row.isError()) {
                unreadable.add(row);
                continue;
              }
              Map<String, String> result = apply(row.attributes(), byAnchor.remove(row.anchor()));
              if (result != null) {
                writer.write(result);
              }
            }
          }
        }
      }
      for (List<PendingExportRow> exports : byAnchor.values()) {
        Map<String, String> result = apply(null, exports);
        if (result != null) {
          writer.write(result);
        }
      }
      writer.commit();
    }
    run.commitPage(
        (transaction, page) -> {
          transaction.run(
              c ->
                  pendingExports.markExported(
                      c, pending.stream().map(PendingExportRow::id).toList()));
          for (PendingExportRow export : pending) {
            page.change(export.anchor(), export.csoId(), export.mvoId(), ChangeType.Exported);
          }
          for (ImportRow row : unreadable) {
            page.error(
                row.reference(),
                null,
                row.errorType(),
                row.errorMessage() + "; the row was dropped from the file");
          }
          page.processed = pending.size();
          return new Checkpoint(Checkpoint.EXPORTED, pending.size());
        });
  }

  /** A row after its exports, oldest first; null when it ends up deleted (or never existed). */
  private static Map<String, String> apply(
      Map<String, String> row, List<PendingExportRow> exports) {
    if (exports == null) {
      return row;
    }
    Map<String, String> result = row;
    for (PendingExportRow export : exports) {
      if (export.change() == ExportChange.Update && result == null) {
        // An update of an object the file lost: write it whole again from what was exported.
        result = new LinkedHashMap<>();
      }
      result = SyncEngine.applyExport(result, export.change(), export.attributes());
    }
    return result;
  }
}
