package io.jimflow.dataplane;

import io.jimflow.connector.ImportRow;
import io.jimflow.connector.csv.CsvFileWriter;
import io.jimflow.connector.csv.CsvObjectReader;
import io.jimflow.connector.csv.CsvSettings;
import io.jimflow.dataplane.Checkpoint.Phase;
import io.jimflow.dataplane.config.ObjectTypeConfig;
import io.jimflow.store.ChangeType;
import io.jimflow.store.PendingExportRow;
import io.jimflow.store.PendingExports;
import io.jimflow.store.PendingExports.PendingRange;
import io.jimflow.store.PendingExports.PendingRef;
import io.jimflow.store.Store;
import io.jimflow.sync.ExportChange;
import io.jimflow.sync.SyncEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Export to a CSV file: the file's rows with every pending export applied (created, updated,
 * deleted), written atomically, then the exports marked Exported. Exporting is idempotent (applying
 * an export twice gives the same row), so a retried attempt that finds the marking not begun simply
 * writes the file again; one that finds it begun continues marking.
 *
 * <p>Memory is bounded by a page, not by the number of pending exports: the run fixes at its start
 * the highest pending export id it exports (exports a synchronisation adds meanwhile wait for the
 * next export), reads the old file page by page with the exports of each page's anchors, then the
 * remaining pending exports page by page in id order, and keeps only one bit per CSO written. The
 * file comes out as if every export were applied at once: the old file's rows in their order, then
 * the new objects in the order of their first export. Then one transaction per page marks a page of
 * exports, with its run items and the checkpoint {@code mark:<highest id>:<last id marked>}.
 */
final class ExportRunner {

  private final Store store;
  private final PendingExports pendingExports;
  private final ThresholdGuard guard;

  ExportRunner(Store store, PendingExports pendingExports, ThresholdGuard guard) {
    this.store = store;
    this.pendingExports = pendingExports;
    this.guard = guard;
  }

  void run(RunContext run, Path file, ObjectTypeConfig type, CsvSettings settings) {
    String system = run.system.id();
    if (run.checkpoint.phase() == Phase.MARK) {
      long upTo = run.checkpoint.bound();
      PendingRange left = store.inTransaction(c -> pendingExports.pendingRange(c, system, upTo));
      run.total = run.processed + left.count();
      mark(run, upTo, List.of(), new Encodable(type, settings));
      return;
    }
    PendingRange pending =
        store.inTransaction(c -> pendingExports.pendingRange(c, system, Long.MAX_VALUE));
    if (pending.count() == 0) {
      return;
    }
    if (!run.thresholdsApproved) {
      guard.beforeExport(run, pending.lastId());
    }
    run.total = pending.count();
    Encodable encodable = new Encodable(type, settings);
    List<ImportRow> unreadable = writeFile(run, file, type, settings, encodable, pending.lastId());
    run.checkpoint = new Checkpoint(Phase.MARK, 0, pending.lastId());
    mark(run, pending.lastId(), unreadable, encodable);
  }

  /**
   * Writes the new file: the old one's rows with their exports applied, then the objects it lacks.
   *
   * @return the old file's rows that could not be read, dropped from the new one
   */
  private List<ImportRow> writeFile(
      RunContext run,
      Path file,
      ObjectTypeConfig type,
      CsvSettings settings,
      Encodable encodable,
      long upTo) {
    String system = run.system.id();
    int pageSize = run.profile.pageSize();
    CsoIds written = new CsoIds();
    List<ImportRow> unreadable = new ArrayList<>();
    try (CsvFileWriter writer = CsvFileWriter.create(file, type.attributes(), settings)) {
      if (Files.exists(file)) {
        try (CsvObjectReader reader = CsvObjectReader.open(file, type.anchor(), settings)) {
          List<ImportRow> rows;
          while (!(rows = reader.nextPage(pageSize)).isEmpty()) {
            Set<String> anchors = new LinkedHashSet<>();
            for (ImportRow row : rows) {
              if (!row.isError()) {
                anchors.add(row.anchor());
              }
            }
            Map<String, List<PendingExportRow>> exports = exportsOf(system, anchors, upTo);
            // An anchor the file holds twice: its exports go to the first row only.
            exports.values().removeIf(e -> e.stream().anyMatch(x -> written.contains(x.csoId())));
            for (ImportRow row : rows) {
              if (row.isError()) {
                unreadable.add(row);
                continue;
              }
              List<PendingExportRow> applied = exports.remove(row.anchor());
              // Exports the file's encoding cannot hold leave the row as it was.
              write(
                  writer,
                  encodable.column(applied) == null
                      ? apply(row.attributes(), applied)
                      : row.attributes(),
                  applied,
                  written);
            }
            run.heartbeat();
          }
        }
      }
      long after = 0;
      List<PendingRef> page;
      while (!(page = refs(system, after, upTo, pageSize)).isEmpty()) {
        Set<String> anchors = new LinkedHashSet<>();
        for (PendingRef ref : page) {
          if (!written.contains(ref.csoId())) {
            anchors.add(ref.anchor());
          }
        }
        Map<String, List<PendingExportRow>> exports = exportsOf(system, anchors, upTo);
        for (String anchor : anchors) {
          List<PendingExportRow> applied = exports.get(anchor);
          if (applied != null) {
            write(
                writer,
                encodable.column(applied) == null ? apply(null, applied) : null,
                applied,
                written);
          }
        }
        after = page.get(page.size() - 1).id();
        run.heartbeat();
      }
      writer.commit();
    }
    return unreadable;
  }

  /**
   * Marks the exports up to {@code upTo} after the checkpoint Exported, a page per transaction,
   * with their run items; the first page also records the rows dropped from the file. The exports
   * of an object the file's encoding cannot hold were not written: they stay Pending, with one
   * error item naming the object (the same on a resumed attempt: it is decided by the exports).
   */
  private void mark(RunContext run, long upTo, List<ImportRow> unreadable, Encodable encodable) {
    int pageSize = run.profile.pageSize();
    List<ImportRow> errors = unreadable;
    while (true) {
      long after = run.checkpoint.position();
      List<PendingRef> page = refs(run.system.id(), after, upTo, pageSize);
      if (page.isEmpty() && errors.isEmpty()) {
        return;
      }
      Map<String, List<PendingExportRow>> exports =
          exportsOf(
              run.system.id(),
              page.stream().map(PendingRef::anchor).collect(Collectors.toSet()),
              upTo);
      List<PendingRef> exported = new ArrayList<>();
      List<PendingRef> unwritten = new ArrayList<>();
      for (PendingRef ref : page) {
        List<PendingExportRow> of = exports.get(ref.anchor());
        if (of == null || encodable.column(of) == null) {
          exported.add(ref);
        } else if (of.stream().mapToLong(PendingExportRow::id).min().orElse(0) == ref.id()) {
          // Its first export: one error item per object, whichever page its exports are on.
          unwritten.add(ref);
        }
      }
      List<ImportRow> dropped = errors;
      run.commitPage(
          (transaction, items) -> {
            transaction.run(
                c ->
                    pendingExports.markExported(c, exported.stream().map(PendingRef::id).toList()));
            for (PendingRef export : exported) {
              items.change(export.anchor(), export.csoId(), export.mvoId(), ChangeType.Exported);
            }
            for (PendingRef export : unwritten) {
              String column = encodable.column(exports.get(export.anchor()));
              items.error(
                  export.anchor(),
                  export.csoId(),
                  "UnencodableValue",
                  export.anchor()
                      + ": "
                      + column
                      + " holds a character that "
                      + encodable.encoding()
                      + " (the connected system's encoding) cannot hold; it was not written and"
                      + " its export stays pending");
            }
            for (ImportRow row : dropped) {
              items.error(
                  row.reference(),
                  null,
                  row.errorType(),
                  row.errorMessage() + "; the row was dropped from the file");
            }
            items.processed = page.size();
            long last = page.isEmpty() ? after : page.get(page.size() - 1).id();
            return new Checkpoint(Phase.MARK, last, upTo);
          });
      errors = List.of();
      if (page.size() < pageSize) {
        return;
      }
    }
  }

  private List<PendingRef> refs(String system, long after, long upTo, int limit) {
    return store.inTransaction(c -> pendingExports.findPendingRefs(c, system, after, upTo, limit));
  }

  private Map<String, List<PendingExportRow>> exportsOf(
      String system, Collection<String> anchors, long upTo) {
    return store.inTransaction(c -> pendingExports.findPendingByAnchors(c, system, anchors, upTo));
  }

  /** Writes a row unless deleted, and remembers the CSOs whose exports it applied. */
  private static void write(
      CsvFileWriter writer,
      Map<String, String> row,
      List<PendingExportRow> applied,
      CsoIds written) {
    if (row != null) {
      writer.write(row);
    }
    if (applied != null) {
      applied.forEach(e -> written.add(e.csoId()));
    }
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

  /** Whether an object's exports can be written in the file's encoding. */
  private record Encodable(List<String> header, CsvSettings settings) {

    Encodable(ObjectTypeConfig type, CsvSettings settings) {
      this(type.attributes(), settings);
    }

    String encoding() {
      return settings.encoding().name();
    }

    /**
     * The first column the exports would write a value to that the encoding cannot hold, or null.
     * Decided on the exports alone (what the file held before was read in the same encoding), so a
     * resumed attempt decides the same.
     */
    String column(List<PendingExportRow> exports) {
      if (exports == null) {
        return null;
      }
      Map<String, String> values = apply(new LinkedHashMap<>(), exports);
      return values == null
          ? null
          : CsvFileWriter.unwritableColumn(header, settings.encoding(), values);
    }
  }

  /**
   * CSO ids, one bit each (about 125 KiB per million ids), in blocks so that any id fits: the CSOs
   * whose exports are already in the file.
   */
  private static final class CsoIds {
    private static final int BLOCK_BITS = 20;
    private static final long MASK = (1L << BLOCK_BITS) - 1;
    private final Map<Long, BitSet> blocks = new HashMap<>();

    void add(long id) {
      blocks
          .computeIfAbsent(id >>> BLOCK_BITS, k -> new BitSet(1 << BLOCK_BITS))
          .set((int) (id & MASK));
    }

    boolean contains(long id) {
      BitSet block = blocks.get(id >>> BLOCK_BITS);
      return block != null && block.get((int) (id & MASK));
    }
  }
}
