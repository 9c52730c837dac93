package io.jimflow.connector.ldap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.util.ssl.KeyStoreKeyManager;
import com.unboundid.util.ssl.SSLUtil;
import com.unboundid.util.ssl.TrustAllTrustManager;
import io.jimflow.connector.ConnectorException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Over LDAPS and StartTLS the server's certificate must name the host connected to, even when the
 * certificate itself is trusted; {@code verifyHostName: false} turns that check off.
 */
class LdapTlsTest {

  static final String BASE = TestDirectory.BASE;
  static final String PIN = "changeit";

  @TempDir Path dir;
  InMemoryDirectoryServer server;

  /** A directory serving a certificate for {@code san} (keytool's -ext SAN syntax). */
  void serve(String san) throws Exception {
    Path keyStore = dir.resolve("server.p12");
    Process keytool =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-keystore",
                keyStore.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PIN,
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-dname",
                "CN=directory",
                "-ext",
                "SAN=" + san,
                "-validity",
                "2")
            .redirectErrorStream(true)
            .start();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue())
        .as(new String(keytool.getInputStream().readAllBytes()))
        .isZero();
    SSLUtil serverTls =
        new SSLUtil(
            new KeyStoreKeyManager(keyStore.toFile(), PIN.toCharArray(), "PKCS12", "server"), null);
    InetAddress loopback = InetAddress.getByName("localhost");
    server =
        TestDirectory.start(
            "pw",
            config ->
                config.setListenerConfigs(
                    InMemoryListenerConfig.createLDAPSConfig(
                        "ldaps", loopback, 0, serverTls.createSSLServerSocketFactory(), null),
                    InMemoryListenerConfig.createLDAPConfig(
                        "starttls", loopback, 0, serverTls.createSSLSocketFactory())));
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.shutDown(true);
    }
  }

  LdapDirectory connect(String listener, String verifyHostName) {
    boolean startTls = listener.equals("starttls");
    Map<String, String> settings = new HashMap<>();
    settings.put(
        "url", (startTls ? "ldap" : "ldaps") + "://localhost:" + server.getListenPort(listener));
    settings.put("startTls", String.valueOf(startTls));
    settings.put("bindDn", TestDirectory.BIND_DN);
    settings.put("baseDn", BASE);
    if (verifyHostName != null) {
      settings.put("verifyHostName", verifyHostName);
    }
    // The certificate itself is trusted: only the host name check stands in the way.
    return LdapDirectory.connect(
        LdapSettings.of(settings, name -> null), "pw", new TrustAllTrustManager());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"ldaps", "starttls"})
  void aTrustedCertificateForAnotherHostIsRefused(String listener) throws Exception {
    serve("dns:elsewhere.example");

    assertThatThrownBy(() -> connect(listener, null))
        .isInstanceOf(ConnectorException.class)
        .hasMessageContaining("the server's certificate does not name the host localhost");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"ldaps", "starttls"})
  void aCertificateNamingTheHostIsAccepted(String listener) throws Exception {
    serve("dns:localhost");

    try (LdapDirectory directory = connect(listener, null)) {
      assertThat(directory.read(BASE, "dc").getAttributeValue("dc")).isEqualTo("example");
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"ldaps", "starttls"})
  void theCheckTurnedOffAcceptsACertificateForAnotherHost(String listener) throws Exception {
    serve("dns:elsewhere.example");

    try (LdapDirectory directory = connect(listener, "false")) {
      assertThat(directory.read(BASE, "dc").getAttributeValue("dc")).isEqualTo("example");
    }
  }

  @org.junit.jupiter.api.Test
  void verifyHostNameIsOnUnlessSetToFalseAndTakesOnlyTrueOrFalse() {
    Map<String, String> settings = new HashMap<>();
    settings.put("url", "ldaps://directory.example.org");
    settings.put("bindDn", TestDirectory.BIND_DN);
    settings.put("baseDn", BASE);
    assertThat(LdapSettings.of(settings, name -> null).verifyHostName()).isTrue();
    settings.put("verifyHostName", "no");
    assertThat(LdapSettings.problems(settings, java.util.Set.of(), false))
        .contains(
            new LdapSettings.Problem(
                "verifyHostName", "verifyHostName must be true or false, not 'no'"));
    settings.put("verifyHostName", "false");
    assertThat(LdapSettings.of(settings, name -> null).verifyHostName()).isFalse();
  }
}
