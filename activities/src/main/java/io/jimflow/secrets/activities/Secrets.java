package io.jimflow.secrets.activities;

import io.jimflow.secrets.SecretReference;
import io.temporal.failure.ApplicationFailure;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves secret references ({@code ${secret:NAME}}, see {@link SecretReference}) on the worker,
 * where the value may exist without ever entering a workflow payload.
 *
 * <p>Whatever an activity sends back (results, failure messages, heartbeat details, log lines) must
 * go through {@link #masker()} first when it may contain output of something that saw a secret.
 */
public interface Secrets {

  /** The {@code ApplicationFailure} type of a reference to a secret the worker does not have. */
  String UNKNOWN_SECRET = "UnknownSecret";

  /** The {@code ApplicationFailure} type of a reference to one of the worker's own secrets. */
  String SYSTEM_SECRET = "SystemSecret";

  /**
   * The secret's value when {@code valueOrReference} is a reference, otherwise the value itself.
   *
   * @throws ApplicationFailure non-retryable, of type {@link #UNKNOWN_SECRET}, naming the secret
   *     and where the worker looked for it, when the worker has no such secret
   */
  String resolve(String valueOrReference);

  /** Every value of {@code values} {@link #resolve resolved}, keys and order kept. */
  default Map<String, String> resolveAll(Map<String, String> values) {
    Map<String, String> resolved = new LinkedHashMap<>();
    values.forEach((key, value) -> resolved.put(key, resolve(value)));
    return resolved;
  }

  /** Masks every secret value this worker knows now. */
  SecretMasker masker();

  /** No secrets: references are refused, plain values pass, nothing is masked. */
  static Secrets none() {
    return new Secrets() {
      @Override
      public String resolve(String valueOrReference) {
        Optional<SecretReference> reference = SecretReference.parse(valueOrReference);
        if (reference.isPresent()) {
          throw unknown(reference.get(), "this worker has no secrets configured");
        }
        return valueOrReference;
      }

      @Override
      public SecretMasker masker() {
        return SecretMasker.NONE;
      }
    };
  }

  /** The failure for a reference that leads to a system secret: it names both, never a value. */
  static ApplicationFailure systemSecret(SecretReference reference, String what) {
    return ApplicationFailure.newNonRetryableFailure(
        "secret '"
            + reference.name()
            + "' is "
            + what
            + ", a secret of the worker itself, which no step may name (step secrets: the"
            + " secrets folder jimflow.secrets.dir and JIMFLOW_SECRET_* variables)",
        SYSTEM_SECRET);
  }

  /** The failure for a reference to a missing secret: it names the secret, never a value. */
  static ApplicationFailure unknown(SecretReference reference, String whereLooked) {
    return ApplicationFailure.newNonRetryableFailure(
        "secret '" + reference.name() + "' is not known on this worker (" + whereLooked + ")",
        UNKNOWN_SECRET);
  }
}
