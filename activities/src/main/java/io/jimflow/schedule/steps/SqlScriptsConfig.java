package io.jimflow.schedule.steps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.jimflow.secrets.SecretReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The worker's {@code sql-scripts.yaml}: the folder SqlScript steps take their scripts from and the
 * names of the JDBC connections they may use. The file holds names only; each connection's URL,
 * user and password are the worker's secrets {@code sql-<name>-url}, {@code sql-<name>-user} and
 * {@code sql-<name>-password} (see {@link #urlSecret}).
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

  /** Letters, digits, '.', '_' and '-': a name that forms valid secret names. */
  public static final Pattern CONNECTION_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");

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

  private record Document(String root, List<Connection> connections) {}

  private record Connection(String name) {}

  private static String at(Path file, JsonProcessingException e) {
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    return file + (line > 0 ? ":" + line : "") + ": ";
  }

  /**
   * Reads and checks the file.
   *
   * @throws IllegalArgumentException naming the file, the line and what is wrong
   */
  public static SqlScriptsConfig load(Path file) {
    ObjectMapper yaml =
        new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES);
    Document document;
    try {
      document = yaml.readValue(Files.readString(file), Document.class);
    } catch (UnrecognizedPropertyException e) {
      throw new IllegalArgumentException(
          at(file, e)
              + "unknown key '"
              + e.getPropertyName()
              + "' (known: "
              + e.getKnownPropertyIds()
              + ")",
          e);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(at(file, e) + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage(), e);
    }
    List<String> problems = new ArrayList<>();
    if (document == null || document.root() == null || document.root().isBlank()) {
      problems.add("missing required key 'root' (the scripts folder, relative to this file)");
    }
    Set<String> names = new LinkedHashSet<>();
    List<Connection> connections =
        document == null || document.connections() == null ? List.of() : document.connections();
    for (Connection connection : connections) {
      String name = connection == null ? null : connection.name();
      if (name == null || !CONNECTION_NAME.matcher(name).matches()) {
        problems.add(
            "connection name '"
                + name
                + "' must be letters, digits, '.', '_' or '-' (at most 63), e.g. reporting");
      } else if (!names.add(name)) {
        problems.add("duplicate connection name '" + name + "'");
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(file + ": " + String.join("; ", problems));
    }
    Path folder = file.toAbsolutePath().getParent();
    return new SqlScriptsConfig(file, folder.resolve(document.root()).normalize(), names);
  }
}
