package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.SearchScope;
import io.jimflow.secrets.SecretReference;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings of an LDAP connected system, from its {@code settings} in {@code
 * config/connected-systems.yaml}.
 *
 * <pre>
 * settings:
 *   url: ldap://ldap.example.org:389         # or ldaps://…; several separated by spaces for failover
 *   startTls: true                           # upgrade an ldap:// connection with StartTLS
 *   verifyHostName: true                     # false: TLS without checking the server's name
 *   bindDn: cn=jimflow,dc=example,dc=org
 *   password: ${secret:directory-password}   # a secret reference, resolved on the worker
 *   baseDn: ou=people,dc=example,dc=org
 *   scope: sub                               # base, one or sub
 *   filter: (objectClass=inetOrgPerson)      # default: the first object class
 *   objectClasses: [inetOrgPerson, organizationalPerson, person, top]
 *   dnTemplate: uid={uid},ou=people,dc=example,dc=org
 *   deltaSource: accesslog                   # or timestamps (modifyTimestamp/createTimestamp)
 *   accessLogBase: cn=accesslog
 *   connectTimeout: 10s
 *   operationTimeout: 60s
 * </pre>
 *
 * <p>{@code url} may be {@code ${env:NAME:-default}}: the worker's environment variable NAME, or
 * the default when it is unset.
 */
public record LdapSettings(
    String url,
    boolean startTls,
    boolean verifyHostName,
    String bindDn,
    String password,
    String baseDn,
    SearchScope scope,
    String filter,
    List<String> objectClasses,
    String dnTemplate,
    DeltaSource deltaSource,
    String accessLogBase,
    Duration connectTimeout,
    Duration operationTimeout) {

  /** Where a delta import learns what changed. */
  public enum DeltaSource {
    /** OpenLDAP's accesslog overlay: adds, modifies, renames and deletes, by {@code reqStart}. */
    accesslog,
    /**
     * Entries whose modifyTimestamp or createTimestamp is at or after the watermark; no deletes.
     */
    timestamps
  }

  public static final List<String> KEYS =
      List.of(
          "url",
          "startTls",
          "verifyHostName",
          "bindDn",
          "password",
          "baseDn",
          "scope",
          "filter",
          "objectClasses",
          "dnTemplate",
          "deltaSource",
          "accessLogBase",
          "connectTimeout",
          "operationTimeout");

  private static final Pattern ENV =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)(:-(.*))?}");
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^{}]+)}");

  /** A problem with one setting (null key: the settings as a whole). */
  public record Problem(String key, String message) {}

  /** Every problem of these settings; none means {@link #of} succeeds. */
  public static List<Problem> problems(
      Map<String, String> settings, Set<String> attributes, boolean exports) {
    List<Problem> problems = new ArrayList<>();
    String url = settings.get("url");
    if (url == null) {
      problems.add(new Problem(null, "an LDAP system needs 'url' (ldap://host:port or ldaps://…)"));
    } else {
      for (String one : resolveEnvironment(url, name -> null).split("\\s+")) {
        try {
          LDAPURL parsed = new LDAPURL(one);
          if (!parsed.getScheme().equals("ldap") && !parsed.getScheme().equals("ldaps")) {
            problems.add(
                new Problem("url", "url '" + one + "' must start with ldap:// or ldaps://"));
          }
        } catch (LDAPException e) {
          problems.add(new Problem("url", "url '" + one + "' is not an LDAP URL"));
        }
      }
    }
    if ("true".equals(settings.get("startTls")) && url != null && url.contains("ldaps://")) {
      problems.add(
          new Problem("startTls", "startTls is for ldap:// URLs; ldaps:// is TLS already"));
    }
    bool(settings, "startTls", problems);
    bool(settings, "verifyHostName", problems);
    for (String key : List.of("bindDn", "baseDn")) {
      String dn = settings.get(key);
      if (dn == null) {
        problems.add(new Problem(null, "an LDAP system needs '" + key + "'"));
      } else if (!DN.isValidDN(dn)) {
        problems.add(new Problem(key, key + " '" + dn + "' is not a valid DN"));
      }
    }
    String password = settings.get("password");
    if (password == null) {
      problems.add(
          new Problem(null, "an LDAP system needs 'password', a reference ${secret:NAME}"));
    } else if (!SecretReference.isReference(password)) {
      // Never echo the value: it may be the password itself.
      problems.add(
          new Problem(
              "password",
              "password must be a secret reference ${secret:NAME} resolved on the worker, never"
                  + " the password itself"));
    }
    String scope = settings.get("scope");
    if (scope != null && scope(scope) == null) {
      problems.add(new Problem("scope", "scope must be base, one or sub, not '" + scope + "'"));
    }
    String filter = settings.get("filter");
    if (filter != null) {
      try {
        Filter.create(filter);
      } catch (LDAPException e) {
        problems.add(new Problem("filter", "filter '" + filter + "' is not an LDAP filter"));
      }
    }
    String template = settings.get("dnTemplate");
    if (template != null) {
      Matcher m = PLACEHOLDER.matcher(template);
      boolean any = false;
      while (m.find()) {
        any = true;
        if (!attributes.contains(m.group(1))) {
          problems.add(
              new Problem(
                  "dnTemplate",
                  "dnTemplate uses {" + m.group(1) + "}, which is not an attribute of the system"));
        }
      }
      if (!any || !DN.isValidDN(PLACEHOLDER.matcher(template).replaceAll("x"))) {
        problems.add(
            new Problem(
                "dnTemplate",
                "dnTemplate '"
                    + template
                    + "' must be a DN with {attribute} placeholders, e.g."
                    + " uid={uid},ou=people,dc=example,dc=org"));
      }
    }
    if (exports && template == null) {
      problems.add(
          new Problem(null, "an LDAP system with an Export run profile needs 'dnTemplate'"));
    }
    if (exports && settings.get("objectClasses") == null) {
      problems.add(
          new Problem(null, "an LDAP system with an Export run profile needs 'objectClasses'"));
    }
    String delta = settings.get("deltaSource");
    if (delta != null
        && Arrays.stream(DeltaSource.values()).noneMatch(d -> d.name().equals(delta))) {
      problems.add(
          new Problem(
              "deltaSource", "deltaSource must be accesslog or timestamps, not '" + delta + "'"));
    }
    String logBase = settings.get("accessLogBase");
    if (logBase != null && !DN.isValidDN(logBase)) {
      problems.add(new Problem("accessLogBase", "accessLogBase '" + logBase + "' is not a DN"));
    }
    for (String key : List.of("connectTimeout", "operationTimeout")) {
      String text = settings.get(key);
      if (text != null && duration(text) == null) {
        problems.add(
            new Problem(key, key + " '" + text + "' is not a duration (e.g. 10s, 500ms, PT1M)"));
      }
    }
    return problems;
  }

  /** The settings of a valid configuration, {@code url} resolved against the environment. */
  public static LdapSettings of(Map<String, String> settings, Function<String, String> env) {
    String objectClasses = settings.get("objectClasses");
    List<String> classes =
        objectClasses == null
            ? List.of()
            : Arrays.stream(objectClasses.split(",")).map(String::trim).toList();
    String filter = settings.get("filter");
    if (filter == null) {
      filter = classes.isEmpty() ? "(objectClass=*)" : "(objectClass=" + classes.get(0) + ")";
    }
    String scope = settings.get("scope");
    String delta = settings.get("deltaSource");
    return new LdapSettings(
        resolveEnvironment(settings.get("url"), env),
        "true".equals(settings.get("startTls")),
        !"false".equals(settings.get("verifyHostName")),
        settings.get("bindDn"),
        settings.get("password"),
        settings.get("baseDn"),
        scope == null ? SearchScope.SUB : scope(scope),
        filter,
        classes,
        settings.get("dnTemplate"),
        delta == null ? DeltaSource.timestamps : DeltaSource.valueOf(delta),
        settings.getOrDefault("accessLogBase", "cn=accesslog"),
        duration(settings.getOrDefault("connectTimeout", "10s")),
        duration(settings.getOrDefault("operationTimeout", "60s")));
  }

  /** The attribute names the DN template uses, in order. */
  public List<String> dnTemplateAttributes() {
    List<String> names = new ArrayList<>();
    if (dnTemplate != null) {
      Matcher m = PLACEHOLDER.matcher(dnTemplate);
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /**
   * The DN the template gives for these values (each value escaped as a DN value needs), or null
   * when one of them is missing.
   */
  public String dnFor(Map<String, String> values) {
    Matcher m = PLACEHOLDER.matcher(dnTemplate);
    StringBuilder dn = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null || value.isEmpty()) {
        return null;
      }
      m.appendReplacement(dn, Matcher.quoteReplacement(escapeDnValue(value)));
    }
    m.appendTail(dn);
    return dn.toString();
  }

  /** A value as RFC 4514 writes it inside a DN. */
  static String escapeDnValue(String value) {
    StringBuilder escaped = new StringBuilder(value.length() + 8);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean edge = (i == 0 && (c == ' ' || c == '#')) || (i == value.length() - 1 && c == ' ');
      if (edge || ",+\"\\<>;=".indexOf(c) >= 0) {
        escaped.append('\\');
      }
      escaped.append(c);
    }
    return escaped.toString();
  }

  static String resolveEnvironment(String text, Function<String, String> env) {
    Matcher m = ENV.matcher(text.trim());
    if (!m.matches()) {
      return text.trim();
    }
    String value = env.apply(m.group(1));
    if (value != null && !value.isBlank()) {
      return value.trim();
    }
    return m.group(3) == null ? "" : m.group(3).trim();
  }

  private static void bool(Map<String, String> settings, String key, List<Problem> problems) {
    String value = settings.get(key);
    if (value != null && !value.equals("true") && !value.equals("false")) {
      problems.add(new Problem(key, key + " must be true or false, not '" + value + "'"));
    }
  }

  private static SearchScope scope(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "base" -> SearchScope.BASE;
      case "one", "onelevel" -> SearchScope.ONE;
      case "sub", "subtree" -> SearchScope.SUB;
      default -> null;
    };
  }

  static Duration duration(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    try {
      if (t.startsWith("p")) {
        return Duration.parse(t.toUpperCase(Locale.ROOT));
      }
      if (t.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      }
      if (t.endsWith("s")) {
        return Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      if (t.endsWith("m")) {
        return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
      }
      return null;
    } catch (NumberFormatException | DateTimeParseException e) {
      return null;
    }
  }
}
