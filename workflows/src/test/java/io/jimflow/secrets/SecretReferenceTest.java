package io.jimflow.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretReferenceTest {

  @Test
  void aWholeValueOfTheReferenceFormIsAReference() {
    assertThat(SecretReference.parse("${secret:db-password}"))
        .contains(new SecretReference("db-password"));
    assertThat(SecretReference.isReference("${secret:API_TOKEN.v2}")).isTrue();
  }

  @Test
  void plainValuesAndReferencesInsideOtherTextAreNotReferences() {
    assertThat(SecretReference.parse("hunter2")).isEmpty();
    assertThat(SecretReference.parse(null)).isEmpty();
    assertThat(SecretReference.isReference("prefix ${secret:db-password}")).isFalse();
    assertThat(SecretReference.isReference("${secret:db-password} ")).isFalse();
    assertThat(SecretReference.isReference("${env:db-password}")).isFalse();
  }

  @Test
  void aReferenceWithABadNameIsMalformedNotPlain() {
    assertThat(SecretReference.isMalformedReference("${secret:}")).isTrue();
    assertThat(SecretReference.isMalformedReference("${secret:../etc/passwd}")).isTrue();
    assertThat(SecretReference.isMalformedReference("${secret:db-password")).isTrue();
    assertThat(SecretReference.isMalformedReference("${secret:db-password}")).isFalse();
    assertThat(SecretReference.isMalformedReference("plain")).isFalse();
  }

  @Test
  void namesThatCouldLeaveTheSecretsFolderAreRefused() {
    assertThatThrownBy(() -> new SecretReference("../x")).hasMessageContaining("not a valid");
    assertThatThrownBy(() -> new SecretReference(".hidden")).hasMessageContaining("not a valid");
    assertThatThrownBy(() -> new SecretReference("a/b")).hasMessageContaining("not a valid");
  }

  @Test
  void theEnvironmentVariableIsTheUpperCaseNameWithAPrefix() {
    assertThat(new SecretReference("db-password").environmentVariable())
        .isEqualTo("JIMFLOW_SECRET_DB_PASSWORD");
    assertThat(new SecretReference("ldap.bind").environmentVariable())
        .isEqualTo("JIMFLOW_SECRET_LDAP_BIND");
  }

  @Test
  void namesOfPasswordsTokensSecretsAndKeysLookLikeSecrets() {
    assertThat(SecretReference.looksLikeSecretName("DB_PASSWORD")).isTrue();
    assertThat(SecretReference.looksLikeSecretName("api_token")).isTrue();
    assertThat(SecretReference.looksLikeSecretName("CLIENT_SECRET")).isTrue();
    assertThat(SecretReference.looksLikeSecretName("API_KEY")).isTrue();
    assertThat(SecretReference.looksLikeSecretName("APIKEY")).isTrue();
    assertThat(SecretReference.looksLikeSecretName("MODE")).isFalse();
    assertThat(SecretReference.looksLikeSecretName("KEYBOARD_LAYOUT")).isFalse();
    assertThat(SecretReference.looksLikeSecretName("SSH_KEY_FILE")).isFalse();
    assertThat(SecretReference.looksLikeSecretName("TOKEN_PATH")).isFalse();
  }

  @Test
  void aReferenceIsWrittenBackAsItWasWritten() {
    assertThat(new SecretReference("db-password")).hasToString("${secret:db-password}");
  }
}
