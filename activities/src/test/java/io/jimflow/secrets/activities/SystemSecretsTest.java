package io.jimflow.secrets.activities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.temporal.failure.ApplicationFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A step's {@code ${secret:NAME}} never reaches the worker's own secrets. */
class SystemSecretsTest {

  private static final String KEYS = "2026-11:q3JmX0z8q6Yl0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=";
  private static final String STORE_PASSWORD = "store-pw-7f3a9c";

  @TempDir Path dir;
  private WorkerSecrets secrets;

  @BeforeEach
  void aWorkerWhoseStepSecretsFolderAlsoHoldsItsOwnSecrets() throws Exception {
    // As if jimflow.secrets.dir were /run/secrets, where the payload keys are mounted too.
    Path folder = Files.createDirectories(dir.resolve("run-secrets"));
    Path keys = Files.writeString(folder.resolve("payload-keys"), KEYS + "\n");
    Files.writeString(folder.resolve("directory-password"), "directory-pw-123\n");
    Files.writeString(folder.resolve("copy-of-store"), STORE_PASSWORD);
    secrets =
        new WorkerSecrets(
            Optional.of(folder),
            Map.of("JIMFLOW_SECRET_STORE", STORE_PASSWORD, "JIMFLOW_SECRET_API", "api-token-4711"),
            SystemSecrets.builder()
                .file("the payload keys", keys.toString())
                .value("the store password", STORE_PASSWORD)
                .build());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "payload-keys       | the payload keys",
        "copy-of-store      | the store password",
        "store              | the store password",
      })
  void aReferenceThatLeadsToASystemSecretIsRefusedNamingIt(String name, String what) {
    ApplicationFailure refused =
        catchThrowableOfType(
            () -> secrets.resolve("${secret:" + name + "}"), ApplicationFailure.class);

    assertThat(refused.getType()).isEqualTo(Secrets.SYSTEM_SECRET);
    assertThat(refused.isNonRetryable()).isTrue();
    assertThat(refused.getOriginalMessage())
        .contains("secret '" + name + "' is " + what + ", a secret of the worker itself")
        .doesNotContain(KEYS, STORE_PASSWORD);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {"directory-password | directory-pw-123", "api | api-token-4711"})
  void stepSecretsStillResolve(String name, String value) {
    assertThat(secrets.resolve("${secret:" + name + "}")).isEqualTo(value);
  }

  @org.junit.jupiter.api.Test
  void systemSecretValuesAreMaskedToo() {
    assertThat(secrets.masker().mask("keys " + KEYS + " store " + STORE_PASSWORD))
        .isEqualTo("keys *** store ***");
  }
}
