package io.jimflow.exampledata.activities;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * Writes JIM's example HR data; the data plane's generator (also behind {@code ./jimflow data
 * generate}) implements it. It streams, calls {@code written} every so often with the rows written
 * so far, and must give up promptly (by letting the callback's exception propagate) when that
 * throws.
 */
@FunctionalInterface
public interface ExampleDataWriter {

  /**
   * @return how many people were written
   */
  long generate(int people, Path outFile, long seed, LongConsumer written) throws IOException;
}
