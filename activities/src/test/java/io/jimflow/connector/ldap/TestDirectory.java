package io.jimflow.connector.ldap;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * The in-memory LDAP directory of the connector's tests, set up in one place: the base {@value
 * #BASE} with {@value #PEOPLE} below it, and the connector's account {@value #BIND_DN}, listening
 * on a free port.
 */
public final class TestDirectory {

  public static final String BASE = "dc=example,dc=org";
  public static final String PEOPLE = "ou=people," + BASE;
  public static final String BIND_DN = "cn=jimflow," + BASE;

  private TestDirectory() {}

  /** What a test changes in the directory's configuration before it starts. */
  @FunctionalInterface
  public interface Customisation {
    void apply(InMemoryDirectoryServerConfig config) throws Exception;
  }

  /** Started with plain LDAP on a free port; {@link #BIND_DN} binds with {@code password}. */
  public static InMemoryDirectoryServer start(String password) throws Exception {
    return start(password, config -> {});
  }

  /**
   * Started like {@link #start(String)} after {@code customisation} (e.g. an operation interceptor,
   * or TLS listeners in place of the plain one).
   */
  public static InMemoryDirectoryServer start(String password, Customisation customisation)
      throws Exception {
    InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig(BASE);
    config.addAdditionalBindCredentials(BIND_DN, password);
    config.setListenerConfigs(InMemoryListenerConfig.createLDAPConfig("ldap", 0));
    customisation.apply(config);
    InMemoryDirectoryServer server = new InMemoryDirectoryServer(config);
    server.startListening();
    try {
      server.add("dn: " + BASE, "objectClass: domain", "dc: example");
      server.add("dn: " + PEOPLE, "objectClass: organizationalUnit", "ou: people");
    } catch (LDAPException e) {
      server.shutDown(true);
      throw e;
    }
    return server;
  }

  /** The URL of the directory's plain LDAP listener. */
  public static String url(InMemoryDirectoryServer server) {
    return "ldap://127.0.0.1:" + server.getListenPort();
  }
}
