package io.jimflow.exampledata.activities;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.function.LongConsumer;

/**
 * Writes the example HR people of {@link io.jimflow.exampledata.ExamplePeople} to a CSV file on the
 * worker: into a hidden temporary file beside the target, moved over it only when complete, so a
 * cancelled or failed generation never leaves a half-written file behind.
 */
public final class CsvExampleDataWriter implements ExampleDataWriter {

  @Override
  public long generate(int people, Path outFile, long seed, LongConsumer written)
      throws IOException {
    Path target = outFile.toAbsolutePath();
    Files.createDirectories(target.getParent());
    Path temporary =
        target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    try {
      try (Writer writer =
          new BufferedWriter(
              Files.newBufferedWriter(
                  temporary, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW),
              1 << 16)) {
        new io.jimflow.exampledata.ExamplePeople(seed).write(people, writer, written);
      }
      Files.move(
          temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return people;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }
}
