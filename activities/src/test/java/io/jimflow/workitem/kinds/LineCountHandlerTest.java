package io.jimflow.workitem.kinds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jimflow.files.FileRoots;
import io.jimflow.workitem.WorkItemState;
import io.jimflow.workitem.activities.WorkItemFinishedContext;
import io.jimflow.workitem.activities.WorkItemRunOutcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LineCountHandlerTest {

  private final ObjectMapper json = new ObjectMapper();
  @TempDir Path dir;
  private LineCountHandler handler;

  @BeforeEach
  void handlerWithTheTestDirectoryAsItsOnlyRoot() {
    handler = new LineCountHandler(json, FileRoots.workItemRoots(List.of(dir)));
  }

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
  void countsEveryLineAndChecksumsEveryByte() throws Exception {
    Path f = file(dir, 2500, true);

    WorkItemRunOutcome out = handler.run(new FakeRunContext(start(f, 1000), Integer.MAX_VALUE));

    LineCountHandler.State s = json.readValue(out.stateJson(), LineCountHandler.State.class);
    assertThat(out.done()).isTrue();
    assertThat(s.lines()).isEqualTo(2500);
    assertThat(s.offset()).isEqualTo(Files.size(f));
    assertThat(s.hash()).isEqualTo(fnv1a64(Files.readAllBytes(f)));
  }

  @Test
  void aLastLineWithoutNewlineCounts() throws Exception {
    Path f = file(dir, 7, false);
    WorkItemRunOutcome out = handler.run(new FakeRunContext(start(f, 3), Integer.MAX_VALUE));
    assertThat(json.readValue(out.stateJson(), LineCountHandler.State.class).lines()).isEqualTo(7);
  }

  @Test
  void anInterruptedRunStopsAtAChunkBoundaryAndTheNextRunContinuesToTheSameResult()
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
  void finishedAppendsTheResultWhenAResultPathIsSet() throws Exception {
    Path f = file(dir, 10, true);
    Path result = dir.resolve("result.jsonl");
    String state =
        "{\"path\":\"" + f + "\",\"resultPath\":\"" + result + "\",\"lines\":10,\"offset\":3}";

    handler.finished(
        new WorkItemFinishedContext(
            FakeRunContext.GUID, "line-count", 2, WorkItemState.Finished, state, false));

    assertThat(Files.readAllLines(result))
        .singleElement()
        .satisfies(
            l -> assertThat(l).contains("\"finalState\":\"Finished\"").contains("\"lines\":10"));
  }

  @Test
  void aResultPathOutsideTheRootsEndsTheRunWithAClearErrorAndFinishedWritesNothing(
      @TempDir Path outside) throws Exception {
    Path f = file(dir, 10, true);
    Files.createSymbolicLink(dir.resolve("out"), outside);
    Files.createSymbolicLink(dir.resolve("script-link.jsonl"), outside.resolve("step.sh"));
    for (String hostile :
        List.of(
            outside.resolve("step.sh").toString(),
            dir.resolve("../" + outside.getFileName() + "/step.sh").toString(),
            dir.resolve("out/step.sh").toString(),
            dir.resolve("script-link.jsonl").toString(),
            "relative.jsonl")) {
      String state = "{\"path\":\"" + f + "\",\"resultPath\":\"" + hostile + "\",\"lines\":10}";

      assertThatThrownBy(() -> handler.run(new FakeRunContext(state, Integer.MAX_VALUE)))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("resultPath '" + hostile + "'")
          .hasMessageContaining("nothing was read or written");
      assertThatThrownBy(
              () ->
                  handler.finished(
                      new WorkItemFinishedContext(
                          FakeRunContext.GUID, "line-count", 1, WorkItemState.Error, state, false)))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class);
    }
    try (var written = Files.list(outside)) {
      assertThat(written.toList()).isEmpty();
    }
  }

  @Test
  void withoutRootsNoFileIsReadOrWritten() throws Exception {
    LineCountHandler rootless = new LineCountHandler(json, FileRoots.workItemRoots(List.of()));
    Path f = file(dir, 10, true);
    Path result = dir.resolve("result.jsonl");
    String state = "{\"path\":\"" + f + "\",\"resultPath\":\"" + result + "\"}";

    assertThatThrownBy(() -> rootless.run(new FakeRunContext(state, Integer.MAX_VALUE)))
        .hasMessageContaining("path '" + f + "' is outside every work item root of this worker")
        .hasMessageContaining("none configured: jimflow.work-items.roots");
    assertThatThrownBy(
            () ->
                rootless.finished(
                    new WorkItemFinishedContext(
                        FakeRunContext.GUID, "line-count", 1, WorkItemState.Removed, state, false)))
        .hasMessageContaining("resultPath '" + result + "' is outside");
    assertThat(result).doesNotExist();
  }

  @Test
  void aGuidThatIsNotAUuidAndNumbersOutOfRangeAreRefused() throws Exception {
    Path f = file(dir, 10, true);
    Path result = dir.resolve("result.jsonl");
    String state = "{\"path\":\"" + f + "\",\"resultPath\":\"" + result + "\"}";

    assertThatThrownBy(
            () ->
                handler.finished(
                    new WorkItemFinishedContext(
                        "x\nrm -rf /", "line-count", 1, WorkItemState.Finished, state, false)))
        .hasMessageContaining("its guid must be a UUID");
    assertThatThrownBy(
            () ->
                handler.run(
                    new FakeRunContext(
                        start(f, 0).replace("\"chunkLines\":0", "\"chunkLines\":2000000000"),
                        Integer.MAX_VALUE)))
        .hasMessageContaining("'chunkLines' must be between 1 and 1000000, was 2000000000");
    assertThatThrownBy(
            () ->
                handler.run(
                    new FakeRunContext(
                        "{\"path\":\"" + f + "\",\"pauseMillis\":86400000}", Integer.MAX_VALUE)))
        .hasMessageContaining("'pauseMillis' must be between 0 and 60000");
    assertThatThrownBy(
            () ->
                handler.run(
                    new FakeRunContext(
                        "{\"path\":\"" + f + "\",\"offset\":-5}", Integer.MAX_VALUE)))
        .hasMessageContaining("'offset' must be between 0");
    assertThat(result).doesNotExist();
  }
}
