package io.jimflow.secrets;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reference to a secret, written {@code ${secret:NAME}} where a definition would otherwise hold
 * the secret's value. Definitions, schedules and workflow histories carry only the reference; the
 * worker resolves it when a step runs, so the value never enters a Temporal payload.
 *
 * <p>A value is a reference only when it consists of the reference alone; {@code NAME} is letters,
 * digits, {@code .}, {@code _} and {@code -}, starting with a letter or digit (the names of files
 * in a mounted secrets folder, such as {@code db-password}).
 *
 * @param name the secret's name, e.g. {@code db-password}
 */
public record SecretReference(String name) {

  /** How a reference is written, for messages that teach it. */
  public static final String SYNTAX = "${secret:NAME}";

  private static final String NAME = "[A-Za-z0-9][A-Za-z0-9._-]{0,252}";
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{secret:(" + NAME + ")}");
  private static final Pattern SECRET_WORD = Pattern.compile("PASSWORD|PASSWD|TOKEN|SECRET");

  public SecretReference {
    if (name == null || !name.matches(NAME)) {
      throw new IllegalArgumentException("'" + name + "' is not a valid secret name");
    }
  }

  /** True when {@code value} is exactly one well-formed secret reference. */
  public static boolean isReference(String value) {
    return parse(value).isPresent();
  }

  /** The reference {@code value} consists of, or empty when it is a plain value. */
  public static Optional<SecretReference> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    Matcher matcher = REFERENCE.matcher(value);
    return matcher.matches()
        ? Optional.of(new SecretReference(matcher.group(1)))
        : Optional.empty();
  }

  /**
   * True when {@code value} is meant as a reference but is not a well-formed one (it starts with
   * {@code ${secret:}), so that validation can say so instead of taking it as a literal.
   */
  public static boolean isMalformedReference(String value) {
    return value != null && value.startsWith("${secret:") && !isReference(value);
  }

  /**
   * True when a variable or setting of this name is likely to hold a secret: its name contains
   * PASSWORD, PASSWD, TOKEN or SECRET, or a part of it ends in KEY ({@code API_KEY}, {@code
   * APIKEY}); names of files, paths and folders ({@code *_FILE}, {@code *_PATH}, {@code *_DIR}) are
   * not.
   */
  public static boolean looksLikeSecretName(String name) {
    if (name == null) {
      return false;
    }
    String upper = name.toUpperCase(Locale.ROOT);
    if (upper.endsWith("_FILE") || upper.endsWith("_PATH") || upper.endsWith("_DIR")) {
      return false;
    }
    if (SECRET_WORD.matcher(upper).find()) {
      return true;
    }
    for (String part : upper.split("[^A-Z0-9]+")) {
      if (part.endsWith("KEY")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The environment variable a worker reads this secret from when its secrets folder has no file of
   * that name: {@code JIMFLOW_SECRET_} and the name in upper case, other characters as {@code _}
   * ({@code db-password} → {@code JIMFLOW_SECRET_DB_PASSWORD}).
   */
  public String environmentVariable() {
    return "JIMFLOW_SECRET_" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
  }

  /** The reference as written in a definition. */
  @Override
  public String toString() {
    return "${secret:" + name + "}";
  }
}
