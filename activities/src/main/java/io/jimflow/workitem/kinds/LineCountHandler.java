package io.jimflow.workitem.kinds;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.files.FileRoots;
import io.jimflow.workitem.activities.WorkItemFinishedContext;
import io.jimflow.workitem.activities.WorkItemHandler;
import io.jimflow.workitem.activities.WorkItemRunContext;
import io.jimflow.workitem.activities.WorkItemRunOutcome;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts a file's lines and computes an FNV-1a 64 checksum, chunk by chunk, saving its byte offset
 * after every chunk: interruptible at any chunk boundary and resumable by a restarted instance.
 *
 * <p>State: {@code {"path": "...", "chunkLines": 1000, "offset": 0, "lines": 0, "hash": …,
 * "pauseMillis": 0, "resultPath": null}}. When {@code resultPath} is set, WorkItemFinished appends
 * the result there as one JSON line; {@code resumedFrom} records the offset the latest instance
 * started at.
 *
 * <p>Both paths must lie below the worker's work item roots ({@link FileRoots}), the guid must be a
 * UUID and every number in range; an item whose state asks for anything else ends in Error naming
 * the field, having read and written nothing.
 */
public final class LineCountHandler implements WorkItemHandler {

  public static final String KIND = "line-count";

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final Logger log = LoggerFactory.getLogger(LineCountHandler.class);

  /** The most lines a chunk may have (a chunk is read between two checkpoints). */
  public static final int MAX_CHUNK_LINES = 1_000_000;

  /** The longest pause between chunks an item may ask for. */
  public static final long MAX_PAUSE_MILLIS = 60_000;

  private final ObjectMapper json;
  private final FileRoots roots;

  public LineCountHandler(ObjectMapper json, FileRoots roots) {
    this.json = json;
    this.roots = roots;
  }

  /**
   * The item's state; {@code hash} null means "not started", so a fresh item needs only the path.
   */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record State(
      String path,
      Integer chunkLines,
      long offset,
      long lines,
      Long hash,
      long pauseMillis,
      String resultPath,
      boolean complete,
      Long resumedFrom) {

    int chunk() {
      return chunkLines == null || chunkLines <= 0 ? 1000 : chunkLines;
    }

    long hashOrStart() {
      return hash == null ? FNV_OFFSET : hash;
    }
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public WorkItemRunOutcome run(WorkItemRunContext context) throws Exception {
    State state = json.readValue(context.state(), State.class);
    String item = item(context.guid());
    Path file = roots.readable(item, "path", state.path());
    if (state.resultPath() != null) {
      roots.writable(item, "resultPath", state.resultPath());
    }
    if (state.chunkLines() != null) {
      FileRoots.bounded(item, "chunkLines", state.chunkLines(), 1, MAX_CHUNK_LINES);
    }
    FileRoots.bounded(item, "pauseMillis", state.pauseMillis(), 0, MAX_PAUSE_MILLIS);
    FileRoots.bounded(item, "offset", state.offset(), 0, Long.MAX_VALUE);
    state =
        new State(
            state.path(),
            state.chunkLines(),
            state.offset(),
            state.lines(),
            state.hash(),
            state.pauseMillis(),
            state.resultPath(),
            state.complete(),
            state.offset());
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      channel.position(state.offset());
      InputStream in = new BufferedInputStream(Channels.newInputStream(channel), 64 * 1024);
      while (true) {
        if (context.shouldFinish()) {
          return WorkItemRunOutcome.stopped(json.writeValueAsString(state));
        }
        state = readChunk(in, state);
        String saved = json.writeValueAsString(state);
        context.saveProgress(saved);
        if (state.complete()) {
          return WorkItemRunOutcome.done(saved);
        }
        if (state.pauseMillis() > 0) {
          Thread.sleep(state.pauseMillis());
        }
      }
    }
  }

  private static State readChunk(InputStream in, State s) throws IOException {
    long offset = s.offset();
    long lines = s.lines();
    long hash = s.hashOrStart();
    int read = 0;
    long sinceNewline = 0;
    boolean eof = false;
    while (read < s.chunk()) {
      int b = in.read();
      if (b < 0) {
        eof = true;
        break;
      }
      offset++;
      sinceNewline++;
      hash = (hash ^ (b & 0xff)) * FNV_PRIME;
      if (b == '\n') {
        lines++;
        read++;
        sinceNewline = 0;
      }
    }
    if (eof && sinceNewline > 0) {
      lines++; // a last line without a trailing newline still counts
    }
    return new State(
        s.path(),
        s.chunkLines(),
        offset,
        lines,
        hash,
        s.pauseMillis(),
        s.resultPath(),
        eof,
        s.resumedFrom());
  }

  @Override
  public void finished(WorkItemFinishedContext context) throws Exception {
    State state = json.readValue(context.state(), State.class);
    log.info(
        "line-count {} ended {} (instance {}): {} lines, {} bytes, fnv1a64 {}",
        context.guid(),
        context.finalState(),
        context.instance(),
        state.lines(),
        state.offset(),
        Long.toHexString(state.hashOrStart()));
    if (state.resultPath() != null) {
      // The state may never have reached run(): checked here too, before anything is written.
      String item = item(context.guid());
      Path resultFile = roots.writable(item, "resultPath", state.resultPath());
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("guid", context.guid());
      result.put("finalState", context.finalState().name());
      result.put("instance", context.instance());
      result.put("restartFollows", context.restartFollows());
      result.put("lines", state.lines());
      result.put("bytes", state.offset());
      result.put("fnv1a64", Long.toHexString(state.hashOrStart()));
      result.put("complete", state.complete());
      result.put("resumedFrom", state.resumedFrom());
      String line = json.writeValueAsString(result) + "\n";
      // Through the fence: a WorkItemFinished that overran its limit appends nothing.
      context.write(
          () ->
              Files.writeString(
                  resultFile,
                  line,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.APPEND,
                  LinkOption.NOFOLLOW_LINKS));
    }
  }

  /** How messages name the item; refuses a guid that is not a UUID (results carry it). */
  private static String item(String guid) {
    return "line-count item " + FileRoots.uuid(KIND, guid);
  }
}
