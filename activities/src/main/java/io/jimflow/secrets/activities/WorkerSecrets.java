package io.jimflow.secrets.activities;

import io.jimflow.secrets.SecretReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The worker's secrets: a file named after the secret in a secrets folder (the way Kubernetes
 * mounts a Secret as a volume, or Docker Compose mounts {@code secrets:} under {@code
 * /run/secrets}), else the environment variable {@link SecretReference#environmentVariable()}.
 *
 * <p>Files are read on every resolution, so a rotated secret takes effect with the next step. One
 * trailing line break of a file is dropped (editors add it; passwords never end in one).
 */
public final class WorkerSecrets implements Secrets {

  private final Optional<Path> folder;
  private final Map<String, String> environment;
  private final SystemSecrets system;

  /**
   * @param folder the secrets folder ({@code jimflow.secrets.dir}); empty when the worker takes
   *     secrets from its environment only
   * @param environment the worker's environment
   */
  public WorkerSecrets(Optional<Path> folder, Map<String, String> environment) {
    this(folder, environment, SystemSecrets.NONE);
  }

  /**
   * @param system the worker's own secrets: a reference that leads to one of them (its file, or a
   *     step secret of the same value) is refused, and their values are masked too
   */
  public WorkerSecrets(
      Optional<Path> folder, Map<String, String> environment, SystemSecrets system) {
    this.folder = folder;
    this.environment = Map.copyOf(environment);
    this.system = system;
  }

  @Override
  public String resolve(String valueOrReference) {
    Optional<SecretReference> reference = SecretReference.parse(valueOrReference);
    if (reference.isEmpty()) {
      return valueOrReference;
    }
    SecretReference name = reference.get();
    Optional<String> systemFile =
        folder
            .map(dir -> dir.resolve(name.name()))
            .filter(Files::isRegularFile)
            .flatMap(system::file);
    String value = find(name).orElseThrow(() -> Secrets.unknown(name, whereLooked(name)));
    Optional<String> systemSecret = systemFile.or(() -> system.value(value));
    if (systemSecret.isPresent()) {
      throw Secrets.systemSecret(name, systemSecret.get());
    }
    return value;
  }

  @Override
  public SecretMasker masker() {
    List<String> values = new ArrayList<>();
    environment.forEach(
        (name, value) -> {
          if (name.startsWith("JIMFLOW_SECRET_")) {
            values.add(value);
          }
        });
    folder.filter(Files::isDirectory).ifPresent(dir -> values.addAll(fileValues(dir)));
    values.addAll(system.values());
    return SecretMasker.of(values);
  }

  private Optional<String> find(SecretReference reference) {
    Optional<String> fromFile =
        folder
            .map(dir -> dir.resolve(reference.name()))
            .filter(Files::isRegularFile)
            .map(WorkerSecrets::read);
    return fromFile.or(() -> Optional.ofNullable(environment.get(reference.environmentVariable())));
  }

  private List<String> fileValues(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> !f.getFileName().toString().startsWith("."))
          .filter(Files::isRegularFile)
          .map(WorkerSecrets::read)
          .toList();
    } catch (IOException e) {
      throw new IllegalStateException("cannot list the secrets folder " + dir + ": " + e, e);
    }
  }

  /** The content of a secret file without its trailing line break; empty when unreadable. */
  static Optional<String> readValue(Path file) {
    try {
      return Files.isRegularFile(file) ? Optional.of(read(file)) : Optional.empty();
    } catch (IllegalStateException e) {
      return Optional.empty();
    }
  }

  private static String read(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.endsWith("\r\n")) {
        return text.substring(0, text.length() - 2);
      }
      return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    } catch (IOException e) {
      // The message names the file, which is named after the secret: never its content.
      throw new IllegalStateException("cannot read secret file " + file + ": " + e.getMessage(), e);
    }
  }

  private String whereLooked(SecretReference reference) {
    return folder
            .map(dir -> "no file " + dir.resolve(reference.name()) + ", no ")
            .orElse("no secrets folder (jimflow.secrets.dir), no ")
        + "environment variable "
        + reference.environmentVariable();
  }
}
