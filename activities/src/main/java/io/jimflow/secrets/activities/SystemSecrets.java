package io.jimflow.secrets.activities;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The worker's own secrets, which no step may name as {@code ${secret:NAME}}: the payload keys, the
 * store's password, its access tokens. Known by the files they are read from and by their values,
 * so that neither a file of the same path in the step secrets folder nor a step secret holding the
 * same value hands them to a step.
 */
public final class SystemSecrets {

  /** No system secrets (tests, tools). */
  public static final SystemSecrets NONE = new SystemSecrets(Map.of(), Map.of());

  private final Map<Path, String> files;
  private final Map<String, String> values;

  private SystemSecrets(Map<Path, String> files, Map<String, String> values) {
    this.files = Map.copyOf(files);
    this.values = Map.copyOf(values);
  }

  /** Builds the set: what each secret is called (e.g. "the payload keys") and where it lives. */
  public static final class Builder {
    private final Map<Path, String> files = new LinkedHashMap<>();
    private final Map<String, String> values = new LinkedHashMap<>();

    /** A secret read from {@code file} (blank: none); its content counts as the value too. */
    public Builder file(String what, String file) {
      if (file != null && !file.isBlank()) {
        Path path = Path.of(file.strip());
        files.put(real(path), what);
        WorkerSecrets.readValue(path).ifPresent(v -> value(what, v));
      }
      return this;
    }

    /** A secret given by value (blank: none). */
    public Builder value(String what, String value) {
      if (value != null && value.length() >= SecretMasker.SHORTEST_MASKED) {
        values.put(value, what);
      }
      return this;
    }

    public SystemSecrets build() {
      return new SystemSecrets(files, values);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** What system secret the file at {@code path} is, if it is one. */
  Optional<String> file(Path path) {
    return Optional.ofNullable(files.get(real(path)));
  }

  /** What system secret {@code value} is, if it is one's value. */
  Optional<String> value(String value) {
    return value == null ? Optional.empty() : Optional.ofNullable(values.get(value));
  }

  /** Their values, for the masker. */
  java.util.Collection<String> values() {
    return values.keySet();
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path.toAbsolutePath().normalize();
    }
  }

  @Override
  public String toString() {
    return "SystemSecrets" + files.values().stream().filter(Objects::nonNull).toList();
  }
}
