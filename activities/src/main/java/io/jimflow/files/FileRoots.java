package io.jimflow.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The directories below which a payload may name files, as the worker configures them: the work
 * item roots of the shipped kinds ({@code jimflow.work-items.roots}, none by default), the data
 * directory of example data generation. Every path a payload names is checked here: below a root
 * both as written and after symbolic links are resolved. A payload is written by whoever started
 * the workflow, so nothing in it is trusted.
 */
public final class FileRoots {

  /** The setting that names the work item roots, for messages. */
  public static final String WORK_ITEM_ROOTS = "jimflow.work-items.roots";

  private final List<Path> roots;
  private final String name;
  private final Path relativeBase;

  /**
   * @param roots the directories
   * @param name what messages call one of them, e.g. "work item root" or "data directory"
   * @param relativeBase what relative paths resolve against; null refuses relative paths
   */
  public FileRoots(List<Path> roots, String name, Path relativeBase) {
    this.roots = roots.stream().map(r -> r.toAbsolutePath().normalize()).toList();
    this.name = name;
    this.relativeBase = relativeBase;
  }

  /** The work item roots of a worker: absolute paths only. */
  public static FileRoots workItemRoots(List<Path> roots) {
    return new FileRoots(roots, "work item root", null);
  }

  public List<Path> roots() {
    return roots;
  }

  /**
   * The existing file or directory {@code value} names, when it lies below a root after its links
   * are resolved.
   *
   * @throws IllegalArgumentException naming the item, the field and why, otherwise
   */
  public Path readable(String item, String field, String value) {
    Path path = belowARoot(item, field, value);
    Path real;
    try {
      real = path.toRealPath();
    } catch (IOException e) {
      throw refused(item, field, value, "does not exist or cannot be read");
    }
    if (!underRealRoot(real)) {
      throw refused(item, field, value, "leads outside " + describeRoots() + " through a link");
    }
    return real;
  }

  /**
   * The file {@code value} names, to be created or appended to, when it lies below a root, its
   * folder exists below that root after links are resolved, and it is not itself a link (write it
   * with {@link LinkOption#NOFOLLOW_LINKS}).
   *
   * @throws IllegalArgumentException naming the item, the field and why, otherwise
   */
  public Path writable(String item, String field, String value) {
    Path path = belowARoot(item, field, value);
    Path parent = path.getParent();
    Path realParent;
    try {
      realParent = parent.toRealPath();
    } catch (IOException e) {
      throw refused(item, field, value, "has no existing folder " + parent);
    }
    if (!underRealRoot(realParent)) {
      throw refused(item, field, value, "leads outside " + describeRoots() + " through a link");
    }
    if (Files.isSymbolicLink(path)) {
      throw refused(item, field, value, "is a symbolic link");
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)
        && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
      throw refused(item, field, value, "is not a regular file");
    }
    return realParent.resolve(path.getFileName());
  }

  /**
   * Like {@link #writable}, first creating the missing folders of the file, each checked to lie
   * below a root after links are resolved.
   */
  public Path creatable(String item, String field, String value) {
    Path path = belowARoot(item, field, value);
    Path root = roots.stream().filter(path::startsWith).findFirst().orElseThrow();
    Path existing = path.getParent();
    Deque<Path> missing = new ArrayDeque<>();
    while (!existing.equals(root) && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
      missing.push(existing);
      existing = existing.getParent();
    }
    try {
      // The root is the worker's own setting: it may be created as it is.
      Files.createDirectories(root);
      if (!underRealRoot(existing.toRealPath())) {
        throw refused(item, field, value, "leads outside " + describeRoots() + " through a link");
      }
      for (Path folder : missing) {
        Files.createDirectory(folder);
      }
    } catch (IOException e) {
      throw refused(item, field, value, "cannot have its folder created: " + e);
    }
    return writable(item, field, path.toString());
  }

  /**
   * {@code guid} when it is a UUID in its canonical form; the shipped kinds write it into their
   * results.
   */
  public static String uuid(String item, String guid) {
    try {
      if (guid != null && UUID.fromString(guid).toString().equals(guid.toLowerCase())) {
        return guid;
      }
    } catch (IllegalArgumentException notAUuid) {
      // refused below
    }
    throw new IllegalArgumentException(
        item + " item '" + guid + "': its guid must be a UUID (e.g. " + new UUID(0, 0) + ")");
  }

  /** {@code value} when it lies in {@code [min, max]}. */
  public static long bounded(String item, String field, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          item
              + ": state field '"
              + field
              + "' must be between "
              + min
              + " and "
              + max
              + ", was "
              + value);
    }
    return value;
  }

  private Path belowARoot(String item, String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(item + ": state has no '" + field + "'");
    }
    Path path;
    try {
      path = Path.of(value);
    } catch (InvalidPathException e) {
      throw refused(item, field, value, "is not a path");
    }
    if (!path.isAbsolute()) {
      if (relativeBase == null) {
        throw refused(item, field, value, "is not an absolute path");
      }
      path = relativeBase.resolve(path);
    }
    Path normal = path.normalize();
    if (roots.stream().noneMatch(r -> normal.startsWith(r) && !normal.equals(r))) {
      throw refused(item, field, value, "is outside " + describeRoots());
    }
    return normal;
  }

  private boolean underRealRoot(Path real) {
    for (Path root : roots) {
      try {
        if (real.startsWith(root.toRealPath())) {
          return true;
        }
      } catch (IOException missingRoot) {
        // a root that does not exist holds nothing
      }
    }
    return false;
  }

  private String describeRoots() {
    return roots.isEmpty()
        ? "every " + name + " of this worker (none configured: " + WORK_ITEM_ROOTS + ")"
        : (roots.size() == 1 ? "the " : "every ")
            + name
            + " of this worker ("
            + roots.stream().map(Path::toString).collect(Collectors.joining(", "))
            + ")";
  }

  private static IllegalArgumentException refused(
      String item, String field, String value, String why) {
    return new IllegalArgumentException(
        item + ": " + field + " '" + value + "' " + why + "; nothing was read or written");
  }
}
