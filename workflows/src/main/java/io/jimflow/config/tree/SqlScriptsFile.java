package io.jimflow.config.tree;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one reader of {@code sql-scripts.yaml}: the folder SqlScript steps take their scripts from
 * and the names of the connections they may use. The worker refuses the file when anything is wrong
 * with it; the schedules tooling takes what it can from it to check SqlScript steps.
 *
 * <pre>
 * root: ../scripts/sql          # relative to this file's folder
 * connections:
 *   - name: reporting
 * </pre>
 *
 * <p>Unknown keys are reported first and alone: a file with keys this version does not know is
 * probably written for another one, so its values are judged only once its keys are right.
 */
public final class SqlScriptsFile {

  /** The file's name beside the schedules files. */
  public static final String FILE_NAME = "sql-scripts.yaml";

  /** Letters, digits, '.', '_' and '-': a name that forms valid secret names. */
  public static final Pattern CONNECTION_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

  private static final String MISSING_ROOT =
      "missing required key 'root' (the scripts folder, relative to this file)";

  private static final YamlTreeReader.Wording WORDING =
      new YamlTreeReader.Wording(
          "cannot be read: file not found", "is not valid YAML: ", MISSING_ROOT);

  private static final List<String> KEYS = List.of("root", "connections");
  private static final List<String> CONNECTION_KEYS = List.of("name");

  /**
   * What the file says, as far as it could be read.
   *
   * @param file where it was read from
   * @param root the scripts root, absolute; empty when the file names none
   * @param connections the valid connection names, in file order, without repeats
   */
  public record SqlScripts(Path file, Optional<Path> root, Set<String> connections) {

    public SqlScripts {
      connections = Collections.unmodifiableSet(new LinkedHashSet<>(connections));
    }
  }

  private SqlScriptsFile() {}

  /**
   * Reads the file, reporting every problem with its line. A file that is there and valid YAML
   * always gives its content, leaving out what is wrong; callers that must not use a file with
   * problems check {@code problems} first.
   *
   * @return what the file says; empty after reporting why there is nothing (missing, unreadable,
   *     not YAML)
   */
  public static Optional<SqlScripts> read(Path file, Problems problems) {
    Optional<ConfigNode> tree = YamlTreeReader.read(file, problems, WORDING);
    if (tree.isEmpty()) {
      return Optional.empty();
    }
    Optional<Fields> document = Fields.of(tree.get(), problems);
    List<Fields> connections = document.map(SqlScriptsFile::connections).orElse(List.of());
    Problems values = problems.isEmpty() ? problems : new Problems(problems.source());
    Optional<Path> root = document.flatMap(fields -> root(fields, values));
    Path folder = file.toAbsolutePath().getParent();
    return Optional.of(
        new SqlScripts(
            file, root.map(r -> folder.resolve(r).normalize()), names(connections, values)));
  }

  /** Each connection's fields, after reporting unknown keys and entries that are no mappings. */
  private static List<Fields> connections(Fields document) {
    document.allowOnly(KEYS);
    return document.items("connections").stream()
        .flatMap(item -> Fields.of(item, document.problems()).stream())
        .map(connection -> connection.allowOnly(CONNECTION_KEYS))
        .toList();
  }

  private static Optional<Path> root(Fields document, Problems problems) {
    Optional<ConfigNode> node = document.node("root");
    if (node.isEmpty()) {
      problems.at(document.lineOf("root"), "", MISSING_ROOT);
      return Optional.empty();
    }
    Optional<String> root = Conversions.text().convert(node.get(), problems);
    if (root.isEmpty()) {
      return Optional.empty();
    }
    if (root.get().isBlank()) {
      problems.at(node.get().line(), "", MISSING_ROOT);
      return Optional.empty();
    }
    try {
      return Optional.of(Path.of(root.get()));
    } catch (InvalidPathException e) {
      problems.at(node.get(), "'" + root.get() + "' is not a valid path: " + e.getReason());
      return Optional.empty();
    }
  }

  private static Set<String> names(List<Fields> connections, Problems problems) {
    Set<String> names = new LinkedHashSet<>();
    for (Fields connection : connections) {
      Optional<String> name =
          connection.node("name").flatMap(node -> Conversions.text().convert(node, problems));
      int line = connection.lineOf("name");
      String path = connection.pathOf("name");
      if (name.isEmpty() || !CONNECTION_NAME.matcher(name.get()).matches()) {
        problems.at(
            line,
            path,
            "connection name '"
                + name.orElse(null)
                + "' must be letters, digits, '.', '_' or '-' (at most 63), e.g. reporting");
      } else if (!names.add(name.get())) {
        problems.at(line, path, "duplicate connection name '" + name.get() + "'");
      }
    }
    return names;
  }
}
