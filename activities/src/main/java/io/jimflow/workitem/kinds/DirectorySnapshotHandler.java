package io.jimflow.workitem.kinds;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.workitem.WorkItemFinishedContext;
import io.jimflow.workitem.WorkItemHandler;
import io.jimflow.workitem.WorkItemRunContext;
import io.jimflow.workitem.WorkItemRunOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A recurring item: takes a snapshot of a directory (file count and total size) and plans its
 * successor {@code intervalSeconds} later, until {@code stopAfterRuns} runs are done (0 = forever).
 *
 * <p>State: {@code {"dir": "...", "intervalSeconds": 60, "stopAfterRuns": 0, "runs": 0, "files": 0,
 * "bytes": 0}}.
 */
public final class DirectorySnapshotHandler implements WorkItemHandler {

  public static final String KIND = "directory-snapshot";

  private static final Logger log = LoggerFactory.getLogger(DirectorySnapshotHandler.class);

  private final ObjectMapper json;
  private final Clock clock;

  public DirectorySnapshotHandler(ObjectMapper json, Clock clock) {
    this.json = json;
    this.clock = clock;
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
    if (s.dir() == null) {
      throw new IllegalArgumentException(
          "directory-snapshot item " + context.guid() + ": state has no 'dir'");
    }
    long files = 0;
    long bytes = 0;
    try (Stream<Path> entries = Files.list(Path.of(s.dir()))) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        if (Files.isRegularFile(p)) {
          files++;
          bytes += Files.size(p);
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
    long interval = Math.max(1, s.intervalSeconds());
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
