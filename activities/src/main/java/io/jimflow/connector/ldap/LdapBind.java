package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPURL;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.HostNameSSLSocketVerifier;
import com.unboundid.util.ssl.SSLSocketVerifier;
import com.unboundid.util.ssl.SSLUtil;
import io.jimflow.connector.ConnectorException;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a {@link LdapDirectory}: connects to the first of the settings' URLs that answers (TLS,
 * StartTLS, the certificate's host name checked) and binds; a refusal is a {@link
 * ConnectorException}, a directory that cannot be reached an {@link LdapUnavailableException}.
 */
final class LdapBind {

  // The messages keep LdapDirectory's logger, as before the connection was opened here.
  private static final Logger LOG = LoggerFactory.getLogger(LdapDirectory.class);

  private LdapBind() {}

  /** See {@link LdapDirectory#connect(LdapSettings, String, X509TrustManager)}. */
  static LdapDirectory connect(LdapSettings settings, String password, X509TrustManager trust) {
    LDAPConnectionOptions options = new LDAPConnectionOptions();
    boolean tls = settings.startTls() || settings.url().contains("ldaps://");
    if (tls && !settings.verifyHostName()) {
      LOG.warn(
          "TLS to {} does NOT verify the server's host name (verifyHostName: false): anyone able"
              + " to intercept the connection with a trusted certificate receives the bind password",
          settings.url());
    }
    SSLUtil sslUtil = new SSLUtil(trust);
    HostNameCheck hostNameCheck = new HostNameCheck();
    if (settings.verifyHostName()) {
      options.setSSLSocketVerifier(hostNameCheck);
    }
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
                    sslUtil.createSSLSocketFactory(), options, url.getHost(), url.getPort())
                : new LDAPConnection(options, url.getHost(), url.getPort());
      } catch (LDAPException e) {
        if (hostNameCheck.refused != null) {
          throw hostNameCheck.refusal(text);
        }
        lastUnreachable = e;
        continue;
      } catch (GeneralSecurityException e) {
        throw new ConnectorException("TLS for " + text + " cannot be set up: " + e.getMessage());
      }
      try {
        if (settings.startTls()) {
          ExtendedResult started =
              connection.processExtendedOperation(
                  new StartTLSExtendedRequest(sslUtil.createSSLContext()));
          if (started.getResultCode() != ResultCode.SUCCESS) {
            throw new ConnectorException(
                "StartTLS on "
                    + text
                    + " was refused: "
                    + LdapResults.describe(
                        started.getResultCode(), started.getDiagnosticMessage()));
          }
        }
        connection.bind(new SimpleBindRequest(settings.bindDn(), password));
        return new LdapDirectory(settings, connection, text);
      } catch (LDAPException e) {
        connection.close();
        if (hostNameCheck.refused != null) {
          throw hostNameCheck.refusal(text);
        }
        if (LdapResults.unusable(e.getResultCode())) {
          lastUnreachable = e;
          continue;
        }
        throw new ConnectorException(
            "bind to "
                + text
                + " as "
                + settings.bindDn()
                + " failed: "
                + LdapResults.describe(e.getResultCode(), e.getDiagnosticMessage())
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

  /**
   * Refuses a TLS connection whose server certificate does not name the URL's host (else a man in
   * the middle with any trusted certificate would receive the bind password); remembers that it
   * did, so that the refusal is a configuration error, not an unreachable directory.
   */
  private static final class HostNameCheck extends SSLSocketVerifier {
    private final HostNameSSLSocketVerifier verifier = new HostNameSSLSocketVerifier(false);
    volatile String refused;

    @Override
    public void verifySSLSocket(String host, int port, SSLSocket socket) throws LDAPException {
      try {
        verifier.verifySSLSocket(host, port, socket);
      } catch (LDAPException e) {
        refused = host;
        throw e;
      }
    }

    ConnectorException refusal(String text) {
      return new ConnectorException(
          "TLS to "
              + text
              + ": the server's certificate does not name the host "
              + refused
              + " (connect by a name the certificate holds, or set verifyHostName: false)");
    }
  }
}
