package io.jimflow.secrets.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkerSecretsTest {

  @TempDir Path folder;

  @Test
  void aReferenceIsResolvedFromTheFileNamedAfterTheSecretWithoutItsLineBreak() throws Exception {
    Files.writeString(folder.resolve("db-password"), "s3cret-from-file\n");
    Secrets secrets = new WorkerSecrets(Optional.of(folder), Map.of());

    assertThat(secrets.resolve("${secret:db-password}")).isEqualTo("s3cret-from-file");
  }

  @Test
  void aFileWinsOverTheEnvironmentVariable() throws Exception {
    Files.writeString(folder.resolve("db-password"), "from-file");
    Secrets secrets =
        new WorkerSecrets(
            Optional.of(folder), Map.of("JIMFLOW_SECRET_DB_PASSWORD", "from-environment"));

    assertThat(secrets.resolve("${secret:db-password}")).isEqualTo("from-file");
  }

  @Test
  void withoutAFileTheEnvironmentVariableIsUsed() {
    Secrets secrets =
        new WorkerSecrets(Optional.empty(), Map.of("JIMFLOW_SECRET_DB_PASSWORD", "from-env"));

    assertThat(secrets.resolve("${secret:db-password}")).isEqualTo("from-env");
  }

  @Test
  void aPlainValueIsReturnedAsItIs() {
    Secrets secrets = new WorkerSecrets(Optional.empty(), Map.of());

    assertThat(secrets.resolve("fast")).isEqualTo("fast");
    assertThat(secrets.resolveAll(Map.of("MODE", "fast"))).containsEntry("MODE", "fast");
  }

  @Test
  void anUnknownSecretFailsWithoutRetryNamingTheSecretAndWhereItWasLookedFor() {
    Secrets secrets =
        new WorkerSecrets(Optional.of(folder), Map.of("JIMFLOW_SECRET_OTHER", "other-value"));

    ApplicationFailure failure =
        catchThrowableOfType(
            () -> secrets.resolve("${secret:db-password}"), ApplicationFailure.class);

    assertThat(failure.isNonRetryable()).isTrue();
    assertThat(failure.getType()).isEqualTo(Secrets.UNKNOWN_SECRET);
    assertThat(failure.getOriginalMessage())
        .contains("secret 'db-password' is not known")
        .contains(folder.resolve("db-password").toString())
        .contains("JIMFLOW_SECRET_DB_PASSWORD")
        .doesNotContain("other-value");
  }

  @Test
  void withoutSecretsEveryReferenceIsUnknown() {
    ApplicationFailure failure =
        catchThrowableOfType(
            () -> Secrets.none().resolve("${secret:db-password}"), ApplicationFailure.class);

    assertThat(failure.getOriginalMessage()).contains("'db-password'");
    assertThat(Secrets.none().resolve("plain")).isEqualTo("plain");
  }

  @Test
  void theMaskerHidesEveryValueFromFilesAndPrefixedVariables() throws Exception {
    Files.writeString(folder.resolve("db-password"), "file-secret\n");
    Files.writeString(folder.resolve(".hidden"), "not-a-secret");
    Secrets secrets =
        new WorkerSecrets(
            Optional.of(folder),
            Map.of("JIMFLOW_SECRET_TOKEN", "env-secret", "HOME", "/home/worker"));

    assertThat(secrets.masker().mask("a file-secret, an env-secret, /home/worker, not-a-secret"))
        .isEqualTo("a ***, an ***, /home/worker, not-a-secret");
  }

  @Test
  void longerSecretsAreMaskedWholeAndVeryShortOnesNotAtAll() {
    SecretMasker masker = SecretMasker.of(java.util.List.of("pass", "password123", "ab"));

    assertThat(masker.mask("password123 pass ab")).isEqualTo("*** *** ab");
    assertThat(masker.mask(null)).isNull();
  }
}
