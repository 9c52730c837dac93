package io.jimflow.bench;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.ResultCode;
import io.jimflow.e2e.OpenLdapServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a directory takes without jimflow: the same entries added into a fresh subtree by the LDAP
 * SDK alone, one synchronous add at a time on one connection, or pipelined on one connection.
 */
final class RawAdds {

  private static final String SUFFIX = "dc=example,dc=org";

  private RawAdds() {}

  /** Seconds to add {@code entries} below a new {@code ou=unit}, one add at a time. */
  static double synchronous(String url, List<Entry> entries, String unit) throws LDAPException {
    try (LDAPConnection connection = connect(url)) {
      List<Entry> moved = into(connection, entries, unit);
      long start = System.nanoTime();
      for (Entry entry : moved) {
        connection.add(entry);
      }
      return (System.nanoTime() - start) / 1e9;
    }
  }

  /** Seconds to add {@code entries} below a new {@code ou=unit}, {@code window} in flight. */
  static double pipelined(String url, List<Entry> entries, String unit, int window)
      throws LDAPException, InterruptedException {
    try (LDAPConnection connection = connect(url)) {
      List<Entry> moved = into(connection, entries, unit);
      Semaphore inFlight = new Semaphore(window);
      AtomicInteger failed = new AtomicInteger();
      AsyncResultListener listener =
          (id, result) -> {
            if (result.getResultCode() != ResultCode.SUCCESS) {
              failed.incrementAndGet();
            }
            inFlight.release();
          };
      long start = System.nanoTime();
      for (Entry entry : moved) {
        inFlight.acquire();
        connection.asyncAdd(new AddRequest(entry), listener);
      }
      inFlight.acquire(window);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (failed.get() > 0) {
        throw new IllegalStateException(failed.get() + " pipelined raw adds failed");
      }
      return seconds;
    }
  }

  private static LDAPConnection connect(String url) throws LDAPException {
    LDAPURL parsed = new LDAPURL(url);
    return new LDAPConnection(
        parsed.getHost(), parsed.getPort(), OpenLdapServer.BIND_DN, OpenLdapServer.BIND_PASSWORD);
  }

  /** Creates {@code ou=unit} and gives each entry a DN below it (same RDN, same attributes). */
  private static List<Entry> into(LDAPConnection connection, List<Entry> entries, String unit)
      throws LDAPException {
    String parent = "ou=" + unit + "," + SUFFIX;
    connection.add(
        new Entry(
            parent, new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", unit)));
    List<Entry> moved = new ArrayList<>();
    for (Entry entry : entries) {
      RDN rdn = new DN(entry.getDN()).getRDN();
      moved.add(new Entry(rdn + "," + parent, entry.getAttributes()));
    }
    return moved;
  }

  /** The fields of one CSV line, quotes kept as written. */
  static List<String> csvFields(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      }
      if (c == ',' && !quoted) {
        fields.add(field.toString());
        field.setLength(0);
      } else {
        field.append(c);
      }
    }
    fields.add(field.toString());
    return fields;
  }
}
