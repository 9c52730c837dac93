package io.jimflow.connector;

import java.util.List;

/**
 * The objects of one import, page by page: a CSV file, a directory's paged search, a delta's
 * changes. Memory use depends on the page size, not on the source's size.
 */
public interface ObjectSource extends AutoCloseable {

  /** Skips the first {@code count} objects (a resumed import continues after its checkpoint). */
  void skip(long count);

  /** The next up to {@code size} objects; empty at the end. */
  List<ImportRow> nextPage(int size);

  @Override
  void close();
}
