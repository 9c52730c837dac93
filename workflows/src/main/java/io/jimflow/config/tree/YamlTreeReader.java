package io.jimflow.config.tree;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.jimflow.config.tree.ConfigNode.Entry;
import io.jimflow.config.tree.ConfigNode.ListNode;
import io.jimflow.config.tree.ConfigNode.MapNode;
import io.jimflow.config.tree.ConfigNode.ScalarNode;
import io.jimflow.config.tree.ConfigNode.ScalarType;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a YAML document into a {@link ConfigNode} tree whose nodes know their line, using Jackson's
 * streaming parser. Syntax errors and duplicate keys become problems with their line, not
 * exceptions.
 */
public final class YamlTreeReader {

  private static final YAMLFactory YAML = new YAMLFactory();

  private YamlTreeReader() {}

  /**
   * How the problems of a file as a whole are worded, so that each file keeps the words its users
   * know.
   *
   * @param notFound the problem of a missing file
   * @param syntaxError what precedes the parser's description of a syntax error
   * @param empty the problem of a file without a document
   */
  public record Wording(String notFound, String syntaxError, String empty) {

    /** {@code file not found}, {@code YAML syntax error: …}, {@code the file is empty}. */
    public static final Wording DEFAULT =
        new Wording("file not found", "YAML syntax error: ", "the file is empty");
  }

  /**
   * Reads a file; a file that cannot be read is reported as a problem of the file as a whole.
   *
   * @param source how problems name the file (usually the path as the user typed it)
   * @return the root node, or empty when the file is missing, unreadable or not valid YAML
   */
  public static Optional<ConfigNode> read(Path file, String source, Problems problems) {
    return read(file, problems, Wording.DEFAULT);
  }

  /** Reads a file, wording the problems of the file as a whole as {@code wording} says. */
  public static Optional<ConfigNode> read(Path file, Problems problems, Wording wording) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.file.NoSuchFileException e) {
      problems.at(0, "", wording.notFound());
      return Optional.empty();
    } catch (IOException e) {
      problems.at(0, "", "cannot be read: " + e.getMessage());
      return Optional.empty();
    }
    return read(new StringReader(text), problems, wording);
  }

  /** Reads YAML text; see {@link #read(Path, String, Problems)}. */
  public static Optional<ConfigNode> read(Reader yaml, Problems problems) {
    return read(yaml, problems, Wording.DEFAULT);
  }

  /** Reads YAML text, wording the problems of the text as a whole as {@code wording} says. */
  public static Optional<ConfigNode> read(Reader yaml, Problems problems, Wording wording) {
    try (JsonParser parser = YAML.createParser(yaml)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        problems.at(1, "", wording.empty());
        return Optional.empty();
      }
      // Nodes are kept only when the whole document parsed: a half-read tree would report
      // misleading follow-up problems.
      List<ConfigProblem> duplicateKeys = new ArrayList<>();
      ConfigNode root = readValue(parser, "", problems.source(), duplicateKeys);
      duplicateKeys.forEach(p -> problems.at(p.line(), p.path(), p.message()));
      return Optional.of(root);
    } catch (JsonProcessingException e) {
      problems.at(errorLine(e), "", wording.syntaxError() + errorMessage(e));
      return Optional.empty();
    } catch (IOException e) {
      problems.at(0, "", "cannot be read: " + e.getMessage());
      return Optional.empty();
    }
  }

  private static ConfigNode readValue(
      JsonParser parser, String path, String source, List<ConfigProblem> problems)
      throws IOException {
    JsonToken token = parser.currentToken();
    int line = line(parser.currentTokenLocation());
    switch (token) {
      case START_OBJECT -> {
        List<Entry> entries = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          int keyLine = line(parser.currentTokenLocation());
          String childPath = path.isEmpty() ? key : path + "." + key;
          parser.nextToken();
          ConfigNode value = readValue(parser, childPath, source, problems);
          Integer earlier = seen.putIfAbsent(key, keyLine);
          if (earlier != null) {
            problems.add(
                new ConfigProblem(
                    source,
                    keyLine,
                    childPath,
                    "duplicate key (first given on line " + earlier + ")"));
          } else {
            entries.add(new Entry(key, keyLine, value));
          }
        }
        return new MapNode(line, path, entries);
      }
      case START_ARRAY -> {
        List<ConfigNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          items.add(readValue(parser, path + "[" + items.size() + "]", source, problems));
        }
        return new ListNode(line, path, items);
      }
      default -> {
        return new ScalarNode(line, path, text(parser, token), scalarType(token));
      }
    }
  }

  private static String text(JsonParser parser, JsonToken token) throws IOException {
    return token == JsonToken.VALUE_NULL ? "" : parser.getText();
  }

  private static ScalarType scalarType(JsonToken token) {
    return switch (token) {
      case VALUE_NUMBER_INT -> ScalarType.INTEGER;
      case VALUE_NUMBER_FLOAT -> ScalarType.DECIMAL;
      case VALUE_TRUE, VALUE_FALSE -> ScalarType.BOOLEAN;
      case VALUE_NULL -> ScalarType.NULL;
      default -> ScalarType.STRING;
    };
  }

  private static int line(JsonLocation location) {
    return location == null ? 0 : Math.max(location.getLineNr(), 0);
  }

  private static int errorLine(JsonProcessingException e) {
    if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked
        && marked.getProblemMark() != null) {
      return marked.getProblemMark().getLine() + 1;
    }
    return line(e.getLocation());
  }

  private static String errorMessage(JsonProcessingException e) {
    if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked
        && marked.getProblem() != null) {
      String context = marked.getContext();
      return context == null ? marked.getProblem() : context + ": " + marked.getProblem();
    }
    return e.getOriginalMessage();
  }
}
