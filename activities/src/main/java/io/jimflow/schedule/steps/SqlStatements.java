package io.jimflow.schedule.steps;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Splits a SQL script into its statements at top-level semicolons, each with the line it starts on,
 * so that a failing statement can be named by its line. Semicolons inside string literals ({@code
 * '...'}, {@code E'...'}), quoted identifiers, comments ({@code --}, {@code /* *}{@code /}, nested
 * as in PostgreSQL) and PostgreSQL dollar quotes ({@code $$ ... $$}, {@code $body$ ... $body$}) do
 * not end a statement. Comments before a statement are dropped; a script's last statement needs no
 * semicolon.
 */
public final class SqlStatements {

  /** One statement of a script and the line (from 1) where its first character is. */
  public record Statement(int line, String sql) {}

  /** A script that cannot be split: a literal, identifier or comment is never closed. */
  public static final class UnterminatedException extends RuntimeException {
    private final int line;

    UnterminatedException(int line, String what) {
      super(what + " starting on line " + line + " is never closed");
      this.line = line;
    }

    /** The line where the unclosed part starts. */
    public int line() {
      return line;
    }
  }

  private final String script;
  private int pos;
  private int line = 1;

  private SqlStatements(String script) {
    this.script = script;
  }

  /**
   * The statements of {@code script} in order, without their terminating semicolons.
   *
   * @throws UnterminatedException naming the line where an unclosed literal or comment starts
   */
  public static List<Statement> split(String script) {
    return new SqlStatements(script).statements();
  }

  private List<Statement> statements() {
    List<Statement> statements = new ArrayList<>();
    int start = -1;
    int startLine = 0;
    while (pos < script.length()) {
      char c = script.charAt(pos);
      if (c == '\n') {
        line++;
        pos++;
      } else if (Character.isWhitespace(c)) {
        pos++;
      } else if (c == '-' && peek(1) == '-') {
        skipLineComment();
      } else if (c == '/' && peek(1) == '*') {
        skipBlockComment();
      } else if (c == ';') {
        if (start >= 0) {
          statements.add(new Statement(startLine, script.substring(start, pos).strip()));
          start = -1;
        }
        pos++;
      } else {
        if (start < 0) {
          start = pos;
          startLine = line;
        }
        if (c == '\'') {
          skipQuoted('\'', isEscapeString(), "string literal");
        } else if (c == '"') {
          skipQuoted('"', false, "quoted identifier");
        } else if (c == '$' && dollarTag().isPresent()) {
          skipDollarQuoted(dollarTag().get());
        } else {
          pos++;
        }
      }
    }
    if (start >= 0) {
      statements.add(new Statement(startLine, script.substring(start).strip()));
    }
    return statements;
  }

  private char peek(int ahead) {
    int at = pos + ahead;
    return at < script.length() ? script.charAt(at) : '\0';
  }

  private boolean identifierCharAt(int at) {
    if (at < 0 || at >= script.length()) {
      return false;
    }
    char c = script.charAt(at);
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }

  /** {@code E'...'}: PostgreSQL's strings with backslash escapes. */
  private boolean isEscapeString() {
    return pos > 0
        && (script.charAt(pos - 1) == 'E' || script.charAt(pos - 1) == 'e')
        && !identifierCharAt(pos - 2);
  }

  private void skipLineComment() {
    while (pos < script.length() && script.charAt(pos) != '\n') {
      pos++;
    }
  }

  private void skipBlockComment() {
    int opened = line;
    int depth = 0;
    while (pos < script.length()) {
      char c = script.charAt(pos);
      if (c == '/' && peek(1) == '*') {
        depth++;
        pos += 2;
      } else if (c == '*' && peek(1) == '/') {
        depth--;
        pos += 2;
        if (depth == 0) {
          return;
        }
      } else {
        if (c == '\n') {
          line++;
        }
        pos++;
      }
    }
    throw new UnterminatedException(opened, "a comment /*");
  }

  private void skipQuoted(char quote, boolean backslashEscapes, String what) {
    int opened = line;
    pos++;
    while (pos < script.length()) {
      char c = script.charAt(pos);
      if (c == '\n') {
        line++;
      }
      if (backslashEscapes && c == '\\') {
        if (peek(1) == '\n') {
          line++;
        }
        pos += 2;
      } else if (c == quote) {
        if (peek(1) == quote) {
          pos += 2;
        } else {
          pos++;
          return;
        }
      } else {
        pos++;
      }
    }
    throw new UnterminatedException(opened, "a " + what);
  }

  /** The tag of a dollar quote opening here ({@code $$} or {@code $name$}); not for {@code $1}. */
  private Optional<String> dollarTag() {
    if (identifierCharAt(pos - 1)) {
      return Optional.empty();
    }
    int end = pos + 1;
    while (end < script.length()) {
      char c = script.charAt(end);
      if (c == '$') {
        return Optional.of(script.substring(pos, end + 1));
      }
      boolean first = end == pos + 1;
      if (!(Character.isLetter(c) || c == '_' || (!first && Character.isDigit(c)))) {
        return Optional.empty();
      }
      end++;
    }
    return Optional.empty();
  }

  private void skipDollarQuoted(String tag) {
    int opened = line;
    int close = script.indexOf(tag, pos + tag.length());
    if (close < 0) {
      throw new UnterminatedException(opened, "a dollar-quoted string " + tag);
    }
    int end = close + tag.length();
    for (int i = pos; i < end; i++) {
      if (script.charAt(i) == '\n') {
        line++;
      }
    }
    pos = end;
  }
}
