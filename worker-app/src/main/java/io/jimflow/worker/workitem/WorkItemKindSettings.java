package io.jimflow.worker.workitem;

import io.jimflow.config.JimflowHome;
import io.jimflow.files.FileRoots;
import java.nio.file.Path;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What the shipped work item kinds may do on this worker ({@code jimflow.work-items.*}).
 *
 * @param roots the only directories below which the shipped kinds read and write files (none by
 *     default: they can touch no file; relative ones below the jimflow home); {@code
 *     JIMFLOW_WORK_ITEMS_ROOTS}, comma-separated
 * @param demoKinds whether this worker registers the shipped kinds {@code line-count} and {@code
 *     directory-snapshot} (default false; {@code ./jimflow dev} turns it on); {@code
 *     JIMFLOW_WORK_ITEMS_DEMO_KINDS}
 */
@ConfigurationProperties("jimflow.work-items")
public record WorkItemKindSettings(List<Path> roots, Boolean demoKinds) {

  public WorkItemKindSettings {
    roots = roots == null ? List.of() : List.copyOf(roots);
    demoKinds = demoKinds != null && demoKinds;
  }

  public FileRoots workItemRoots() {
    return FileRoots.workItemRoots(roots.stream().map(JimflowHome::resolve).toList());
  }
}
