package io.jimflow.schedule.file;

import io.jimflow.config.tree.ConnectedSystemsFile;
import io.jimflow.config.tree.Problems;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The connected systems and run profiles named in {@code connected-systems.yaml}, by id and by
 * name, so that a schedules file's RunProfile steps can be checked against them before anything is
 * deployed. The worker validates that file in full; both read it through {@link
 * ConnectedSystemsFile}, this one only for the names.
 */
public final class ConnectedSystemsIndex {

  private final Path file;
  private final Map<String, Set<String>> profilesBySystem;

  private ConnectedSystemsIndex(Path file, Map<String, Set<String>> profilesBySystem) {
    this.file = file;
    this.profilesBySystem = profilesBySystem;
  }

  /**
   * The index of the {@code connected-systems.yaml} beside a schedules file; empty when there is
   * none (or it cannot be read as YAML), in which case references are not checked.
   */
  public static Optional<ConnectedSystemsIndex> besides(Path schedulesFile) {
    return BesideFiles.find(schedulesFile, ConnectedSystemsFile.FILE_NAME)
        .flatMap(
            file -> {
              Problems problems = new Problems(file.toString());
              return ConnectedSystemsFile.read(file, problems)
                  .filter(root -> problems.isEmpty())
                  .map(
                      root ->
                          new ConnectedSystemsIndex(
                              file, ConnectedSystemsFile.runProfilesBySystem(root)));
            });
  }

  /** What is wrong with a reference to a run profile of a connected system, if anything. */
  public Optional<String> problem(String connectedSystem, String runProfile) {
    Set<String> profiles = profilesBySystem.get(connectedSystem);
    if (profiles == null) {
      return Optional.of(
          "connected system '"
              + connectedSystem
              + "' is not in "
              + file.getFileName()
              + " (known: "
              + String.join(", ", profilesBySystem.keySet())
              + ")");
    }
    if (!profiles.contains(runProfile)) {
      return Optional.of(
          "connected system '"
              + connectedSystem
              + "' has no run profile '"
              + runProfile
              + "' in "
              + file.getFileName()
              + " (known: "
              + String.join(", ", profiles)
              + ")");
    }
    return Optional.empty();
  }
}
