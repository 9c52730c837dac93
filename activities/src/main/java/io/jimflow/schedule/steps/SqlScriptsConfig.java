package io.jimflow.schedule.steps;

import io.jimflow.config.tree.ConfigProblem;
import io.jimflow.config.tree.Problems;
import io.jimflow.config.tree.SqlScriptsFile;
import io.jimflow.config.tree.SqlScriptsFile.SqlScripts;
import io.jimflow.secrets.SecretReference;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The worker's {@code sql-scripts.yaml} (read by {@link SqlScriptsFile}): the folder SqlScript
 * steps take their scripts from and the names of the JDBC connections they may use. The file holds
 * names only; each connection's URL, user and password are the worker's secrets {@code
 * sql-<name>-url}, {@code sql-<name>-user} and {@code sql-<name>-password} (see {@link
 * #urlSecret}).
 *
 * <pre>
 * root: ../scripts/sql          # relative to this file's folder
 * connections:
 *   - name: reporting
 * </pre>
 *
 * @param file where it was read from
 * @param root the scripts root, absolute
 * @param connections the connection names, in file order
 */
public record SqlScriptsConfig(Path file, Path root, Set<String> connections) {

  /** The file the worker reads when its setting names none. */
  public static final String DEFAULT_FILE = "config/sql-scripts.yaml";

  public SqlScriptsConfig {
    connections = Collections.unmodifiableSet(new LinkedHashSet<>(connections));
  }

  /** The secret holding a connection's JDBC URL (required). */
  public static SecretReference urlSecret(String connection) {
    return secret(connection, "url");
  }

  /** The secret holding a connection's user; the URL alone is used without it. */
  public static SecretReference userSecret(String connection) {
    return secret(connection, "user");
  }

  /** The secret holding a connection's password; the URL alone is used without it. */
  public static SecretReference passwordSecret(String connection) {
    return secret(connection, "password");
  }

  private static SecretReference secret(String connection, String part) {
    return new SecretReference("sql-" + connection.toLowerCase(Locale.ROOT) + "-" + part);
  }

  /**
   * Reads and checks the file.
   *
   * @throws IllegalArgumentException naming the file and, one a line, every problem with its line
   */
  public static SqlScriptsConfig load(Path file) {
    Problems problems = new Problems(file.toString());
    Optional<SqlScripts> scripts = SqlScriptsFile.read(file, problems);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(
          problems.list().stream().map(ConfigProblem::format).collect(Collectors.joining("\n")));
    }
    SqlScripts read = scripts.orElseThrow();
    return new SqlScriptsConfig(file, read.root().orElseThrow(), read.connections());
  }
}
