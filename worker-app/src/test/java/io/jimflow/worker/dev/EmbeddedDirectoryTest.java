package io.jimflow.worker.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded default's directory: its bind account, and entries kept across a restart. */
class EmbeddedDirectoryTest {

  @TempDir Path dir;

  @Test
  void entriesAndTheirEntryUuidsSurviveARestart() throws Exception {
    Path ldif = dir.resolve("directory.ldif");
    String uuid;
    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
        LDAPConnection connection =
            new LDAPConnection("127.0.0.1", directory.port(), EmbeddedDirectory.BIND_DN, "pw")) {
      connection.add(
          new Entry(
              "uid=E1," + EmbeddedDirectory.PEOPLE_DN,
              new Attribute("objectClass", "inetOrgPerson"),
              new Attribute("uid", "E1"),
              new Attribute("cn", "Ada"),
              new Attribute("sn", "One")));
      uuid =
          connection
              .getEntry("uid=E1," + EmbeddedDirectory.PEOPLE_DN, "entryUUID")
              .getAttributeValue("entryUUID");
    }

    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, ldif, "pw");
        LDAPConnection connection =
            new LDAPConnection("127.0.0.1", directory.port(), EmbeddedDirectory.BIND_DN, "pw")) {
      SearchResultEntry entry =
          connection.getEntry("uid=E1," + EmbeddedDirectory.PEOPLE_DN, "cn", "entryUUID");
      assertThat(entry.getAttributeValue("cn")).isEqualTo("Ada");
      assertThat(entry.getAttributeValue("entryUUID")).isEqualTo(uuid);
    }
  }

  @Test
  void theBindAccountNeedsItsPassword() {
    try (EmbeddedDirectory directory = EmbeddedDirectory.start(0, dir.resolve("d.ldif"), "pw")) {
      assertThatThrownBy(
              () ->
                  new LDAPConnection(
                      "127.0.0.1", directory.port(), EmbeddedDirectory.BIND_DN, "wrong"))
          .isInstanceOfSatisfying(
              LDAPException.class,
              e -> assertThat(e.getResultCode()).isEqualTo(ResultCode.INVALID_CREDENTIALS));
    }
  }
}
