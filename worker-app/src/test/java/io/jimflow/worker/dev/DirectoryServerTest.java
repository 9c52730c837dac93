package io.jimflow.worker.dev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.unboundid.ldap.sdk.LDAPConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryServerTest {

  @TempDir Path dir;

  @Test
  void theBindPasswordComesFromTheSecretsFolderAsOnTheWorker() throws Exception {
    Path secrets = Files.createDirectories(dir.resolve("secrets"));
    Files.writeString(secrets.resolve("directory-password"), "from-a-file\n");
    Map<String, String> environment =
        Map.of(
            "JIMFLOW_DIRECTORY_LISTEN",
            "127.0.0.1:0",
            "JIMFLOW_DIRECTORY_LDIF",
            dir.resolve("directory.ldif").toString(),
            "JIMFLOW_SECRETS_DIR",
            secrets.toString(),
            EmbeddedDirectory.PASSWORD_VARIABLE,
            "not-this-one");

    try (EmbeddedDirectory directory = DirectoryServer.start(environment);
        LDAPConnection ldap =
            new LDAPConnection(
                "127.0.0.1", directory.port(), EmbeddedDirectory.BIND_DN, "from-a-file")) {
      assertThat(ldap.getEntry(EmbeddedDirectory.PEOPLE_DN)).isNotNull();
    }
    assertThat(Files.readString(dir.resolve("directory.ldif")))
        .contains("dn: ou=people,dc=example,dc=org");
  }

  @Test
  void withoutAPasswordOrWithABadAddressItSaysWhatIsMissing() {
    assertThatThrownBy(
            () ->
                DirectoryServer.start(
                    Map.of("JIMFLOW_DIRECTORY_LDIF", dir.resolve("d.ldif").toString())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("secret 'directory-password' is not known")
        .hasMessageContaining(EmbeddedDirectory.PASSWORD_VARIABLE);
    assertThatThrownBy(
            () ->
                DirectoryServer.start(
                    Map.of(
                        "JIMFLOW_DIRECTORY_LISTEN",
                        "10389",
                        EmbeddedDirectory.PASSWORD_VARIABLE,
                        "pw")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JIMFLOW_DIRECTORY_LISTEN must be host:port");
  }

  @Test
  void devModeBindsWithThePrintedDefaultUnlessThePasswordIsSet() {
    assertThat(EmbeddedDirectory.withDevelopmentPassword(Map.of("PATH", "/bin")))
        .containsEntry(EmbeddedDirectory.PASSWORD_VARIABLE, "jimflow-dev-password")
        .containsEntry("PATH", "/bin");
    assertThat(
            EmbeddedDirectory.withDevelopmentPassword(
                Map.of(EmbeddedDirectory.PASSWORD_VARIABLE, "mine")))
        .containsEntry(EmbeddedDirectory.PASSWORD_VARIABLE, "mine");
  }
}
