package io.jimflow.workitem.kinds;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.files.FileRoots;
import io.jimflow.workitem.activities.WorkItemFinishedContext;
import io.jimflow.workitem.activities.WorkItemHandler;
import io.jimflow.workitem.activities.WorkItemRunContext;
import io.jimflow.workitem.activities.WorkItemRunOutcome;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recurring item: takes a snapshot of a directory (file count and total size) and plans its
 * successor {@code intervalSeconds} later, until {@code stopAfterRuns} runs are done (0 = forever).
 *
 * <p>State: {@code {"dir": "...", "intervalSeconds": 60, "stopAfterRuns": 0, "runs": 0, "files": 0,
 * "bytes": 0}}. The directory must lie below the worker's work item roots ({@link FileRoots}), the
 * guid must be a UUID, and the interval between 1 second and a day.
 */
public final class DirectorySnapshotHandler implements WorkItemHandler {

  public static final String KIND = "directory-snapshot";

  private static final Logger log = LoggerFactory.getLogger(DirectorySnapshotHandler.class);

  /** The longest interval between two snapshots. */
  public static final long MAX_INTERVAL_SECONDS = 86_400;

  private final ObjectMapper json;
  private final Clock clock;
  private final FileRoots roots;

  public DirectorySnapshotHandler(ObjectMapper json, Clock clock, FileRoots roots) {
    this.json = json;
    this.clock = clock;
    this.roots = roots;
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record State(
      String dir, long intervalSeconds, int stopAfterRuns, int runs, long files, long bytes) {}

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public WorkItemRunOutcome run(WorkItemRunContext context) throws Exception {
    State s = json.readValue(context.state(), State.class);
    String item = "directory-snapshot item " + FileRoots.uuid(KIND, context.guid());
    Path dir = roots.readable(item, "dir", s.dir());
    long interval =
        FileRoots.bounded(item, "intervalSeconds", s.intervalSeconds(), 1, MAX_INTERVAL_SECONDS);
    FileRoots.bounded(item, "stopAfterRuns", s.stopAfterRuns(), 0, Integer.MAX_VALUE);
    long files = 0;
    long bytes = 0;
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          files++;
          bytes +=
              Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).size();
        }
      }
    }
    State next =
        new State(s.dir(), s.intervalSeconds(), s.stopAfterRuns(), s.runs() + 1, files, bytes);
    String saved = json.writeValueAsString(next);
    context.saveProgress(saved);
    if (next.stopAfterRuns() > 0 && next.runs() >= next.stopAfterRuns()) {
      return WorkItemRunOutcome.done(saved);
    }
    return WorkItemRunOutcome.successorAt(clock.instant().plusSeconds(interval), saved);
  }

  @Override
  public void finished(WorkItemFinishedContext context) throws Exception {
    State s = json.readValue(context.state(), State.class);
    log.info(
        "directory-snapshot {} run {} ended {}: {} files, {} bytes{}",
        context.guid(),
        s.runs(),
        context.finalState(),
        s.files(),
        s.bytes(),
        context.restartFollows() ? "; next run planned" : "");
  }
}
