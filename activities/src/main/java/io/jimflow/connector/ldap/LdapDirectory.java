package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.JVMDefaultTrustManager;
import com.unboundid.util.ssl.SSLUtil;
import io.jimflow.connector.ConnectorException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;

/**
 * One bound connection to a directory, with the operations the connector needs; every failure
 * becomes one of three kinds: {@link ConnectorException} when the directory refuses the connector
 * as configured (bad credentials, TLS refused, no such base), {@link LdapUnavailableException} when
 * it cannot be reached or the connection broke (Temporal retries), and {@link LDAPException} for an
 * operation on one object (that object's error).
 */
public final class LdapDirectory implements AutoCloseable {

  private final LdapSettings settings;
  private final LDAPConnection connection;
  private final String url;

  private LdapDirectory(LdapSettings settings, LDAPConnection connection, String url) {
    this.settings = settings;
    this.connection = connection;
    this.url = url;
  }

  /**
   * Connects to the first URL that answers and binds.
   *
   * @param password the resolved bind password; never logged or put into a message
   */
  public static LdapDirectory connect(LdapSettings settings, String password) {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    options.setConnectTimeoutMillis((int) settings.connectTimeout().toMillis());
    options.setResponseTimeoutMillis(settings.operationTimeout().toMillis());
    options.setAbandonOnTimeout(true);
    LDAPException lastUnreachable = null;
    String lastUrl = settings.url();
    for (String text : settings.url().trim().split("\\s+")) {
      lastUrl = text;
      LDAPURL url;
      try {
        url = new LDAPURL(text);
      } catch (LDAPException e) {
        throw new ConnectorException("'" + text + "' is not an LDAP URL");
      }
      LDAPConnection connection;
      try {
        connection =
            url.getScheme().equals("ldaps")
                ? new LDAPConnection(
                    sslUtil().createSSLSocketFactory(), options, url.getHost(), url.getPort())
                : new LDAPConnection(options, url.getHost(), url.getPort());
      } catch (LDAPException e) {
        lastUnreachable = e;
        continue;
      } catch (GeneralSecurityException e) {
        throw new ConnectorException("TLS for " + text + " cannot be set up: " + e.getMessage());
      }
      try {
        if (settings.startTls()) {
          ExtendedResult started =
              connection.processExtendedOperation(
                  new StartTLSExtendedRequest(sslUtil().createSSLContext()));
          if (started.getResultCode() != ResultCode.SUCCESS) {
            throw new ConnectorException(
                "StartTLS on "
                    + text
                    + " was refused: "
                    + describe(started.getResultCode(), started.getDiagnosticMessage()));
          }
        }
        connection.bind(new SimpleBindRequest(settings.bindDn(), password));
        return new LdapDirectory(settings, connection, text);
      } catch (LDAPException e) {
        connection.close();
        if (unusable(e)) {
          lastUnreachable = e;
          continue;
        }
        throw new ConnectorException(
            "bind to "
                + text
                + " as "
                + settings.bindDn()
                + " failed: "
                + describe(e.getResultCode(), e.getDiagnosticMessage())
                + (e.getResultCode() == ResultCode.INVALID_CREDENTIALS
                    ? " (check the bind DN and the secret its password comes from)"
                    : ""));
      } catch (GeneralSecurityException e) {
        connection.close();
        throw new ConnectorException("StartTLS on " + text + " failed: " + e.getMessage());
      }
    }
    throw new LdapUnavailableException(
        "directory "
            + lastUrl
            + " cannot be reached: "
            + (lastUnreachable == null ? "no URL" : lastUnreachable.getMessage()),
        lastUnreachable);
  }

  private static SSLUtil sslUtil() {
    return new SSLUtil(JVMDefaultTrustManager.getInstance());
  }

  public LdapSettings settings() {
    return settings;
  }

  public String url() {
    return url;
  }

  /**
   * One page of a paged search (simple paged results control).
   *
   * @param cookie null for the first page
   */
  public Page searchPage(
      String base,
      SearchScope scope,
      Filter filter,
      int size,
      byte[] cookie,
      String... attributes) {
    SearchRequest request = new SearchRequest(base, scope, filter, attributes);
    request.setControls(
        new SimplePagedResultsControl(
            size, cookie == null ? null : new com.unboundid.asn1.ASN1OctetString(cookie), true));
    SearchResult result = search(request);
    byte[] next = null;
    try {
      SimplePagedResultsControl control = SimplePagedResultsControl.get(result);
      if (control != null && control.moreResultsToReturn()) {
        next = control.getCookie().getValue();
      }
    } catch (LDAPException e) {
      throw new ConnectorException(
          "the directory's paged results cannot be read: " + e.getMessage());
    }
    return new Page(result.getSearchEntries(), next);
  }

  /** A page of entries and the cookie of the next one (null after the last). */
  public record Page(List<SearchResultEntry> entries, byte[] cookie) {}

  /** Every entry a search finds (for small searches: one entry by DN or anchor). */
  public List<SearchResultEntry> searchAll(
      String base, SearchScope scope, Filter filter, String... attributes) {
    return search(new SearchRequest(base, scope, filter, attributes)).getSearchEntries();
  }

  /** The entry at a DN, or null when there is none. */
  public SearchResultEntry read(String dn, String... attributes) {
    try {
      return connection.getEntry(dn, attributes);
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.NO_SUCH_OBJECT) {
        return null;
      }
      throw failure(e, "reading " + dn);
    }
  }

  /**
   * The entry at a DN if it matches {@code filter} (evaluated by the server, which knows every
   * attribute the filter names, also those not requested), or null when there is none or it does
   * not match.
   */
  public SearchResultEntry readMatching(String dn, Filter filter, String... attributes) {
    try {
      List<SearchResultEntry> found =
          connection.search(dn, SearchScope.BASE, filter, attributes).getSearchEntries();
      return found.isEmpty() ? null : found.get(0);
    } catch (LDAPException e) {
      if (e.getResultCode() == ResultCode.NO_SUCH_OBJECT) {
        return null;
      }
      throw failure(e, "reading " + dn);
    }
  }

  /** The entry below the base DN whose anchor has this value, or null. */
  public SearchResultEntry findByAnchor(
      String anchorAttribute, String value, String... attributes) {
    List<SearchResultEntry> found =
        searchAll(
            settings.baseDn(),
            SearchScope.SUB,
            Filter.createEqualityFilter(anchorAttribute, value),
            attributes);
    return found.isEmpty() ? null : found.get(0);
  }

  /** Adds an entry; an LDAP error for that entry is thrown as {@link LDAPException}. */
  public void add(Entry entry) throws LDAPException {
    operation(() -> connection.add(entry));
  }

  public void modify(String dn, List<Modification> modifications) throws LDAPException {
    operation(() -> connection.modify(dn, modifications));
  }

  public void rename(String dn, String newRdn, String newSuperior) throws LDAPException {
    operation(() -> connection.modifyDN(new ModifyDNRequest(dn, newRdn, true, newSuperior)));
  }

  public void delete(String dn) throws LDAPException {
    operation(() -> connection.delete(dn));
  }

  private interface Operation {
    void run() throws LDAPException;
  }

  private void operation(Operation operation) throws LDAPException {
    try {
      operation.run();
    } catch (LDAPException e) {
      if (unusable(e)) {
        throw new LdapUnavailableException(
            "the connection to " + url + " was lost: " + e.getMessage(), e);
      }
      throw e;
    }
  }

  private SearchResult search(SearchRequest request) {
    try {
      return connection.search(request);
    } catch (LDAPException e) {
      throw failure(e, "searching " + request.getBaseDN());
    }
  }

  private RuntimeException failure(LDAPException e, String doing) {
    if (unusable(e)) {
      return new LdapUnavailableException(
          "the connection to " + url + " was lost while " + doing + ": " + e.getMessage(), e);
    }
    return new ConnectorException(
        "directory "
            + url
            + " refused "
            + doing
            + ": "
            + describe(e.getResultCode(), e.getDiagnosticMessage()));
  }

  private static boolean unusable(LDAPException e) {
    ResultCode code = e.getResultCode();
    return code == ResultCode.SERVER_DOWN
        || code == ResultCode.CONNECT_ERROR
        || code == ResultCode.TIMEOUT
        || code == ResultCode.UNAVAILABLE
        || code == ResultCode.BUSY
        || !ResultCode.isConnectionUsable(code);
  }

  /** "invalidCredentials (49): message" */
  public static String describe(ResultCode code, String message) {
    return code.getName()
        + " ("
        + code.intValue()
        + ")"
        + (message == null || message.isBlank() ? "" : ": " + message);
  }

  /** The values of an entry's attribute (case-insensitive name); none when absent. */
  public static List<String> values(Entry entry, String attribute) {
    Attribute a = entry.getAttribute(attribute);
    return a == null ? List.of() : List.of(a.getValues());
  }

  /** Whether two DNs name the same entry (case and spacing aside). */
  public static boolean sameDn(String a, String b) {
    try {
      return new DN(a).equals(new DN(b));
    } catch (LDAPException e) {
      return a.equalsIgnoreCase(b);
    }
  }

  static List<String> list(String... values) {
    return new ArrayList<>(List.of(values));
  }

  @Override
  public void close() {
    connection.close();
  }
}
