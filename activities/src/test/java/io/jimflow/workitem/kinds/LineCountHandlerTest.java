package io.jimflow.workitem.kinds;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.workitem.WorkItemFinishedContext;
import io.jimflow.workitem.WorkItemRunOutcome;
import io.jimflow.workitem.WorkItemState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineCountHandlerTest {

  private final ObjectMapper json = new ObjectMapper();
  private final LineCountHandler handler = new LineCountHandler(json);

  private static long fnv1a64(byte[] bytes) {
    long h = 0xcbf29ce484222325L;
    for (byte b : bytes) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    return h;
  }

  private Path file(Path dir, int lines, boolean trailingNewline) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      sb.append("line ").append(i).append(" ü");
      if (i < lines - 1 || trailingNewline) {
        sb.append('\n');
      }
    }
    Path f = dir.resolve("data.txt");
    Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
    return f;
  }

  private String start(Path f, int chunk) {
    return "{\"path\":\"" + f.toString().replace("\\", "\\\\") + "\",\"chunkLines\":" + chunk + "}";
  }

  @Test
  void countsEveryLineAndChecksumsEveryByte(@TempDir Path dir) throws Exception {
    Path f = file(dir, 2500, true);

    WorkItemRunOutcome out = handler.run(new FakeRunContext(start(f, 1000), Integer.MAX_VALUE));

    LineCountHandler.State s = json.readValue(out.stateJson(), LineCountHandler.State.class);
    assertThat(out.done()).isTrue();
    assertThat(s.lines()).isEqualTo(2500);
    assertThat(s.offset()).isEqualTo(Files.size(f));
    assertThat(s.hash()).isEqualTo(fnv1a64(Files.readAllBytes(f)));
  }

  @Test
  void aLastLineWithoutNewlineCounts(@TempDir Path dir) throws Exception {
    Path f = file(dir, 7, false);
    WorkItemRunOutcome out = handler.run(new FakeRunContext(start(f, 3), Integer.MAX_VALUE));
    assertThat(json.readValue(out.stateJson(), LineCountHandler.State.class).lines()).isEqualTo(7);
  }

  @Test
  void anInterruptedRunStopsAtAChunkBoundaryAndTheNextRunContinuesToTheSameResult(@TempDir Path dir)
      throws Exception {
    Path f = file(dir, 2500, true);

    FakeRunContext first = new FakeRunContext(start(f, 400), 2);
    WorkItemRunOutcome stopped = handler.run(first);
    LineCountHandler.State mid = json.readValue(stopped.stateJson(), LineCountHandler.State.class);
    assertThat(stopped.done()).isFalse();
    assertThat(mid.lines()).isEqualTo(800);

    WorkItemRunOutcome resumed =
        handler.run(new FakeRunContext(stopped.stateJson(), Integer.MAX_VALUE));
    LineCountHandler.State end = json.readValue(resumed.stateJson(), LineCountHandler.State.class);

    assertThat(resumed.done()).isTrue();
    assertThat(end.resumedFrom()).isEqualTo(mid.offset());
    assertThat(end.lines()).isEqualTo(2500);
    assertThat(end.hash()).isEqualTo(fnv1a64(Files.readAllBytes(f)));
  }

  @Test
  void finishedAppendsTheResultWhenAResultPathIsSet(@TempDir Path dir) throws Exception {
    Path f = file(dir, 10, true);
    Path result = dir.resolve("result.jsonl");
    String state =
        "{\"path\":\"" + f + "\",\"resultPath\":\"" + result + "\",\"lines\":10,\"offset\":3}";

    handler.finished(
        new WorkItemFinishedContext("g", "line-count", 2, WorkItemState.Finished, state, false));

    assertThat(Files.readAllLines(result))
        .singleElement()
        .satisfies(
            l -> assertThat(l).contains("\"finalState\":\"Finished\"").contains("\"lines\":10"));
  }
}
