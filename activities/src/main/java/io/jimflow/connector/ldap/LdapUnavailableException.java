package io.jimflow.connector.ldap;

/**
 * The directory cannot be reached or the connection was lost: worth another attempt, which resumes
 * from the run's last checkpoint.
 */
public class LdapUnavailableException extends RuntimeException {
  public LdapUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
