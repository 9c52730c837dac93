package io.jimflow.schedule.steps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Writes small POSIX sh programs into a test's executables root. */
public final class Scripts {

  public static Path write(Path root, String relative, String body) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "#!/bin/sh\n" + body + "\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The step scripts shipped with jimflow, from the module directory the tests run in. */
  public static Path shippedRoot() {
    return Path.of("..", "scripts", "steps").toAbsolutePath().normalize();
  }

  private Scripts() {}
}
