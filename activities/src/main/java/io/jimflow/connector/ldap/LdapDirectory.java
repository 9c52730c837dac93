package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.UpdatableLDAPRequest;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import com.unboundid.util.ssl.JVMDefaultTrustManager;
import io.jimflow.connector.ConnectorException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.X509TrustManager;

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

  LdapDirectory(LdapSettings settings, LDAPConnection connection, String url) {
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
    return connect(settings, password, JVMDefaultTrustManager.getInstance());
  }

  /**
   * {@link #connect(LdapSettings, String)} trusting the certificates {@code trust} trusts; over TLS
   * the server's certificate must also name the host of the URL unless {@link
   * LdapSettings#verifyHostName} is off (a warning each time).
   */
  static LdapDirectory connect(LdapSettings settings, String password, X509TrustManager trust) {
    return LdapBind.connect(settings, password, trust);
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
   * The entries at these DNs that match {@code filter} (evaluated by the server, which knows every
   * attribute the filter names, also those not requested), read pipelined (at most {@code window}
   * reads in flight): in the order of {@code dns}, null where there is none or it does not match.
   */
  public List<SearchResultEntry> readAllMatching(
      List<String> dns, Filter filter, int window, String... attributes) {
    return PipelinedReads.read(
        connection, url, settings.operationTimeout(), dns, filter, window, attributes);
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

  /**
   * The entries below the base DN whose anchor has one of these values, by the value as given (an
   * entry not found is absent): a few searches of {@link #ANCHORS_PER_SEARCH} values each instead
   * of one search per entry.
   */
  public Map<String, SearchResultEntry> findByAnchors(
      String anchorAttribute, Collection<String> values, String... attributes) {
    Map<String, String> given = new HashMap<>();
    for (String value : values) {
      given.put(value.toLowerCase(Locale.ROOT), value);
    }
    List<String> distinct = new ArrayList<>(given.values());
    String[] requested = Arrays.copyOf(attributes, attributes.length + 1);
    requested[attributes.length] = anchorAttribute;
    Map<String, SearchResultEntry> found = new HashMap<>();
    for (int from = 0; from < distinct.size(); from += ANCHORS_PER_SEARCH) {
      List<Filter> any = new ArrayList<>();
      for (String value :
          distinct.subList(from, Math.min(distinct.size(), from + ANCHORS_PER_SEARCH))) {
        any.add(Filter.createEqualityFilter(anchorAttribute, value));
      }
      for (SearchResultEntry entry :
          searchAll(settings.baseDn(), SearchScope.SUB, Filter.createORFilter(any), requested)) {
        String value = entry.getAttributeValue(anchorAttribute);
        String asGiven = value == null ? null : given.get(value.toLowerCase(Locale.ROOT));
        if (asGiven != null) {
          found.putIfAbsent(asGiven, entry);
        }
      }
    }
    return found;
  }

  /** How many anchor values one search of {@link #findByAnchors} asks for. */
  static final int ANCHORS_PER_SEARCH = 100;

  /**
   * Sends operations without waiting for each answer, at most {@code window} of them unanswered at
   * once (the directory works on them meanwhile); each answer, an LDAP error too, is the value of
   * its future. A lost connection fails the future with {@link LdapUnavailableException}.
   */
  public Pipeline pipeline(int window) {
    return new Pipeline(window);
  }

  /** Operations in flight on this connection; see {@link #pipeline}. */
  public final class Pipeline {
    private final Semaphore window;
    private final int size;

    private Pipeline(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("a pipeline's window is at least 1, not " + size);
      }
      this.size = size;
      this.window = new Semaphore(size);
    }

    /** Sends an add, modify, modify DN or delete request; waits while the window is full. */
    public CompletableFuture<LDAPResult> send(UpdatableLDAPRequest request) {
      acquire(1);
      CompletableFuture<LDAPResult> answer = new CompletableFuture<>();
      AsyncResultListener listener =
          (id, result) -> {
            window.release();
            if (unusable(result.getResultCode())) {
              answer.completeExceptionally(
                  new LdapUnavailableException(
                      "the connection to "
                          + url
                          + " was lost: "
                          + describe(result.getResultCode(), result.getDiagnosticMessage()),
                      null));
            } else {
              answer.complete(result);
            }
          };
      try {
        if (request instanceof AddRequest add) {
          connection.asyncAdd(add, listener);
        } else if (request instanceof ModifyRequest modify) {
          connection.asyncModify(modify, listener);
        } else if (request instanceof ModifyDNRequest rename) {
          connection.asyncModifyDN(rename, listener);
        } else if (request instanceof DeleteRequest delete) {
          connection.asyncDelete(delete, listener);
        } else {
          window.release();
          throw new IllegalArgumentException("not an update: " + request);
        }
      } catch (LDAPException e) {
        window.release();
        throw new LdapUnavailableException(
            "the connection to " + url + " was lost: " + e.getMessage(), e);
      }
      return answer;
    }

    /** Whether the window is full: the next {@link #send} waits for an answer. */
    public boolean full() {
      return window.availablePermits() == 0;
    }

    /** Waits until every request sent has its answer. */
    public void drain() {
      acquire(size);
      window.release(size);
    }

    private void acquire(int permits) {
      // Every request has its answer within the operation timeout (the SDK answers TIMEOUT then).
      long wait = settings.operationTimeout().toMillis() + 30_000;
      try {
        if (!window.tryAcquire(permits, wait, TimeUnit.MILLISECONDS)) {
          throw new LdapUnavailableException(
              "the directory " + url + " left requests unanswered for " + wait + " ms", null);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LdapUnavailableException("interrupted while waiting for " + url, null);
      }
    }
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
    return LdapResults.failure(url, e, doing);
  }

  private static boolean unusable(LDAPException e) {
    return LdapResults.unusable(e.getResultCode());
  }

  private static boolean unusable(ResultCode code) {
    return LdapResults.unusable(code);
  }

  /** "invalidCredentials (49): message" */
  public static String describe(ResultCode code, String message) {
    return LdapResults.describe(code, message);
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
