package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import io.jimflow.connector.ConnectorException;

/**
 * What an LDAP result code means to the connector: whether the connection is still usable (else
 * {@link LdapUnavailableException}, which Temporal retries), and how a refusal reads in a message.
 */
final class LdapResults {

  private LdapResults() {}

  /**
   * The exception for a failed read or search on the directory at {@code url}: unavailable when the
   * connection broke, else a {@link ConnectorException} saying what the directory refused.
   */
  static RuntimeException failure(String url, LDAPException e, String doing) {
    if (unusable(e.getResultCode())) {
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

  /** Whether a result with this code leaves the connection unusable (lost, timed out, busy). */
  static boolean unusable(ResultCode code) {
    return code == ResultCode.SERVER_DOWN
        || code == ResultCode.CONNECT_ERROR
        || code == ResultCode.TIMEOUT
        || code == ResultCode.UNAVAILABLE
        || code == ResultCode.BUSY
        || !ResultCode.isConnectionUsable(code);
  }

  /** "invalidCredentials (49): message" */
  static String describe(ResultCode code, String message) {
    return code.getName()
        + " ("
        + code.intValue()
        + ")"
        + (message == null || message.isBlank() ? "" : ": " + message);
  }
}
