package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.schedule.ExecutionRecord;
import io.jimflow.schedule.ExecutionStatus;
import io.jimflow.schedule.ScheduleExecutionInput.Initiator;
import io.jimflow.schedule.ScheduleExecutionInput.InitiatorType;
import io.jimflow.schedule.ScheduleExecutionInput.TriggerKind;
import io.jimflow.store.ConnectorSpace.CsoUpdate;
import io.jimflow.store.ConnectorSpace.NewCso;
import io.jimflow.store.PendingExports.NewPendingExport;
import io.jimflow.sync.ExportChange;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What the store must do, run by {@link StoreTest} on the tests' PostgreSQL. */
abstract class StoreContractTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T02:00:00Z"), ZoneOffset.UTC);

  final RunRecords runRecords = new RunRecords(CLOCK);
  final ConnectorSpace connectorSpace = new ConnectorSpace(CLOCK);
  final Metaverse metaverse = new Metaverse(CLOCK, Map.of("person", Set.of("employeeId")));
  final PendingExports pendingExports = new PendingExports(CLOCK);
  final ChangeHistory history = new ChangeHistory(CLOCK);

  abstract Store store();

  /** A directory user provisioned but not exported yet. */
  static NewCso provisionedUser(String anchor) {
    return new NewCso(
        "directory",
        "user",
        anchor,
        "{}",
        "",
        CsoState.PendingProvisioning,
        null,
        null,
        false,
        null);
  }

  NewRunRecord newRun() {
    return new NewRunRecord(
        "hr",
        "full-import",
        RunType.FullImport,
        new RunOrigin(
            "Schedule", "nightly", "Nightly HR Sync", "exec-1", "nightly", 0, "HR full import"));
  }

  @Test
  void anOlderAttemptCannotSaveProgressOnceALaterAttemptTookTheRunRecordOver() {
    String id = store().inTransaction(c -> runRecords.create(c, newRun()));
    store()
        .inTransaction(
            c -> {
              runRecords.recordAttempt(c, id, 2);
              return null;
            });
    // The attempt Temporal started before it, still running on a stalled worker, came too late.
    assertThatThrownBy(
            () ->
                store()
                    .inTransaction(
                        c -> {
                          runRecords.recordAttempt(c, id, 1);
                          return null;
                        }))
        .isInstanceOf(SupersededAttemptException.class);

    assertThatThrownBy(
            () ->
                store()
                    .inTransaction(
                        c -> {
                          runRecords.addItems(
                              c,
                              id,
                              0,
                              List.of(RunItem.change("E1", null, null, ChangeType.Added)));
                          runRecords.saveProgress(c, id, 1, new RunTotals(), 1, 1, "row:1");
                          return null;
                        }))
        .isInstanceOf(SupersededAttemptException.class)
        .hasMessageContaining("attempt 1 of run record " + id + " no longer owns it");
    store()
        .inTransaction(
            c -> {
              runRecords.addItems(
                  c, id, 0, List.of(RunItem.change("E1", null, null, ChangeType.Added)));
              runRecords.saveProgress(c, id, 2, new RunTotals(), 1, 1, "row:1");
              return null;
            });
    RunRecord record = store().inTransaction(c -> runRecords.find(c, id)).orElseThrow();
    assertThat(record.attempts()).isEqualTo(2);
    assertThat(record.checkpoint()).isEqualTo("row:1");
  }

  @Test
  void aRunRecordKeepsItsProgressAndEndsOnlyOnce() {
    String id = store().inTransaction(c -> runRecords.create(c, newRun()));
    RunTotals totals = new RunTotals();
    totals.add(Total.ADDED, 3);
    totals.increment(Total.ERRORS);
    store()
        .inTransaction(
            c -> {
              runRecords.saveProgress(c, id, 1, totals, 4, 4, "row:4");
              return null;
            });

    RunRecord open =
        store()
            .inTransaction(c -> runRecords.findInProgress(c, "exec-1", 0, "hr", "full-import"))
            .orElseThrow();
    assertThat(open.checkpoint()).isEqualTo("row:4");
    assertThat(open.totals().get(Total.ADDED)).isEqualTo(3);
    assertThat(open.objectsProcessed()).isEqualTo(4);

    boolean first =
        store()
            .inTransaction(
                c ->
                    runRecords.finish(
                        c, id, RunStatus.CompleteWithWarning, "1 row had errors", totals, 4L, 4L));
    boolean second =
        store()
            .inTransaction(
                c -> runRecords.finish(c, id, RunStatus.Cancelled, "late", null, null, null));

    RunRecord ended = store().inTransaction(c -> runRecords.find(c, id)).orElseThrow();
    assertThat(first).isTrue();
    assertThat(second).isFalse();
    assertThat(ended.status()).isEqualTo(RunStatus.CompleteWithWarning);
    assertThat(ended.endedAt()).isEqualTo(CLOCK.instant());
    var stillOpen =
        store().inTransaction(c -> runRecords.findInProgress(c, "exec-1", 0, "hr", "full-import"));
    assertThat(stillOpen).isEmpty();
  }

  @Test
  void onlyACompletedRunMovesTheWatermarkTheNextDeltaImportStartsFrom() {
    // Runs after the completed one, each with a later watermark.
    RunStatus[] statuses = {
      RunStatus.Complete, RunStatus.Cancelled, RunStatus.FailedWithError, RunStatus.InProgress
    };
    for (int i = 0; i < statuses.length; i++) {
      RunStatus status = statuses[i];
      String watermark = "2026030100000" + i + "Z";
      NewRunRecord run =
          new NewRunRecord(
              "directory",
              "delta-import",
              RunType.DeltaImport,
              new RunOrigin(
                  "Schedule",
                  "nightly",
                  "Nightly HR Sync",
                  "exec-" + i,
                  "nightly",
                  0,
                  "Directory delta import"));
      store()
          .inTransaction(
              c -> {
                String id = runRecords.create(c, run);
                runRecords.saveWatermark(c, id, watermark);
                if (status.isFinal()) {
                  runRecords.finish(c, id, status, null, null, null, null);
                }
                return null;
              });
    }

    Optional<String> watermark =
        store().inTransaction(c -> runRecords.lastCompletedWatermark(c, "directory"));
    assertThat(watermark).contains("20260301000000Z");
  }

  @Test
  void runItemsAreListedErrorsFirstAndASequenceCannotBeWrittenTwice() {
    String id = store().inTransaction(c -> runRecords.create(c, newRun()));
    store()
        .inTransaction(
            c -> {
              runRecords.addItems(
                  c,
                  id,
                  0,
                  List.of(
                      RunItem.change("E1", null, null, ChangeType.Added),
                      RunItem.error(
                          "line 3", null, ChangeType.Added, "MissingAnchor", "no employeeId")));
              return null;
            });

    var items = store().inTransaction(c -> runRecords.items(c, id, false, true, 10));
    assertThat(items).extracting(i -> i.item().objectRef()).containsExactly("line 3", "E1");
    var errors = store().inTransaction(c -> runRecords.items(c, id, true, false, 10));
    assertThat(errors).hasSize(1);
    assertThatThrownBy(
            () ->
                store()
                    .inTransaction(
                        c -> {
                          runRecords.addItems(
                              c,
                              id,
                              1,
                              List.of(RunItem.change("E2", null, null, ChangeType.Added)));
                          return null;
                        }))
        .isInstanceOf(StoreException.class);
    long count = store().inTransaction(c -> runRecords.countItems(c, id));
    assertThat(count).isEqualTo(2);
  }

  /** Text that a bulk insert must store exactly as given (COPY's CSV is the risk). */
  static final List<String> AWKWARD =
      List.of(
          "",
          "a,b",
          "say \"hi\"",
          "\"",
          "first line\nsecond line",
          "\\.",
          "before\n\\.\nafter",
          "back\\slash\\",
          "\\N",
          "NULL",
          "\r\n",
          "tab\there",
          " padded ",
          "é ü 日本 😀");

  @Test
  void writtenRowsKeepQuotesNewlinesAndBackslashesAndTellAnEmptyValueFromNone() {
    Map<String, String> attributes = new TreeMap<>();
    for (int i = 0; i < AWKWARD.size(); i++) {
      attributes.put("k" + i, AWKWARD.get(i));
      attributes.put("name " + AWKWARD.get(i), "v" + i);
    }
    // Nanoseconds, as a clock may give them: stored rounded to microseconds.
    Instant eligible = Instant.parse("2026-02-27T10:15:30.123456500Z");
    MvoRow mvo = new MvoRow("m-1", "person", attributes, eligible);
    List<NewCso> csos = new ArrayList<>();
    for (int i = 0; i < AWKWARD.size(); i++) {
      String text = AWKWARD.get(i);
      csos.add(
          new NewCso(
              "hr",
              "person",
              "anchor " + text,
              text,
              "h",
              CsoState.Normal,
              i == 0 ? "m-1" : null,
              i == 0 ? "Projected" : null,
              false,
              i % 2 == 0 ? text : null));
    }
    String run = store().inTransaction(c -> runRecords.create(c, newRun()));
    Map<String, Long> ids =
        store()
            .inTransaction(
                c -> {
                  metaverse.insert(c, List.of(mvo));
                  Map<String, Long> inserted = connectorSpace.insert(c, csos);
                  List<RunItem> items = new ArrayList<>();
                  for (String text : AWKWARD) {
                    items.add(
                        RunItem.error(text, null, ChangeType.Added, "Bad", "message " + text));
                  }
                  items.add(RunItem.change(null, inserted.get("anchor "), "m-1", ChangeType.Added));
                  runRecords.addItems(c, run, 0, items);
                  pendingExports.insert(
                      c,
                      List.of(
                          new NewPendingExport(
                              "hr",
                              inserted.get("anchor "),
                              null,
                              ExportChange.Update,
                              attributes,
                              true,
                              null)));
                  return inserted;
                });

    Map<String, CsoRow> found =
        store()
            .inTransaction(
                c ->
                    connectorSpace.findByAnchors(
                        c, "hr", "person", csos.stream().map(NewCso::anchor).toList()));
    assertThat(found).hasSize(AWKWARD.size());
    for (int i = 0; i < AWKWARD.size(); i++) {
      String text = AWKWARD.get(i);
      CsoRow row = found.get("anchor " + text);
      assertThat(row.id()).as("id of %s", text).isEqualTo(ids.get("anchor " + text));
      assertThat(row.attributesJson()).isEqualTo(text);
      assertThat(row.lastSeenRun()).isEqualTo(i % 2 == 0 ? text : null);
    }
    assertThat(found.get("anchor a,b").mvoId()).isNull();
    assertThat(found.get("anchor ").mvoId()).isEqualTo("m-1");

    MvoRow stored = store().inTransaction(c -> metaverse.findByIds(c, List.of("m-1"))).get("m-1");
    assertThat(stored.attributes()).isEqualTo(attributes);
    assertThat(stored.deletionEligibleAt()).isEqualTo(Instant.parse("2026-02-27T10:15:30.123457Z"));

    var items = store().inTransaction(c -> runRecords.items(c, run, false, false, 100));
    assertThat(items)
        .extracting(i -> i.item().objectRef())
        .containsExactlyElementsOf(
            Stream.concat(AWKWARD.stream(), Stream.of((String) null)).toList());
    assertThat(items.get(0).item().errorMessage()).isEqualTo("message ");
    assertThat(items.get(AWKWARD.size()).item().errorType()).isNull();
    assertThat(items.get(AWKWARD.size()).item().csoId()).isEqualTo(ids.get("anchor "));

    Map<Long, List<PendingExportRow>> open =
        store().inTransaction(c -> pendingExports.findOpenByCso(c, List.of(ids.get("anchor "))));
    assertThat(open.get(ids.get("anchor ")))
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.attributes()).isEqualTo(attributes);
              assertThat(p.driftCorrection()).isTrue();
              assertThat(p.mvoId()).isNull();
            });
  }

  @Test
  void moreRowsThanOneInsertStatementTakesAreAllWrittenWithTheirOwnIds() {
    int count = 12_345;
    List<NewCso> csos = new ArrayList<>();
    List<RunItem> items = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      csos.add(
          new NewCso(
              "hr",
              "person",
              "E" + i,
              "{\"n\":\"" + i + "\"}",
              "h",
              CsoState.Normal,
              null,
              null,
              true,
              "r"));
      items.add(RunItem.change("E" + i, null, null, ChangeType.Added));
    }
    String run = store().inTransaction(c -> runRecords.create(c, newRun()));
    Map<String, Long> ids =
        store()
            .inTransaction(
                c -> {
                  runRecords.addItems(c, run, 0, items);
                  return connectorSpace.insert(c, csos);
                });

    assertThat(ids).hasSize(count);
    assertThat(Set.copyOf(ids.values())).hasSize(count);
    List<String> sample = List.of("E0", "E4999", "E5000", "E9999", "E10000", "E12344");
    Map<String, CsoRow> found =
        store().inTransaction(c -> connectorSpace.findByAnchors(c, "hr", "person", sample));
    for (String anchor : sample) {
      assertThat(found.get(anchor).id()).as(anchor).isEqualTo(ids.get(anchor));
      assertThat(found.get(anchor).attributes()).containsEntry("n", anchor.substring(1));
    }
    long written = store().inTransaction(c -> runRecords.countItems(c, run));
    assertThat(written).isEqualTo(count);
  }

  @Test
  void csosAreFoundByAnchorUpdatedAndThoseAnImportDidNotSeeAreFound() {
    Map<String, Long> ids =
        store()
            .inTransaction(
                c ->
                    connectorSpace.insert(
                        c,
                        List.of(
                            new NewCso(
                                "hr",
                                "person",
                                "E1",
                                "{\"name\":\"Ada\"}",
                                "h1",
                                CsoState.Normal,
                                null,
                                null,
                                true,
                                "run-1"),
                            new NewCso(
                                "hr",
                                "person",
                                "E2",
                                "{\"name\":\"Bob\"}",
                                "h2",
                                CsoState.Normal,
                                null,
                                null,
                                true,
                                "run-1"))));
    assertThat(ids).containsOnlyKeys("E1", "E2");

    store()
        .inTransaction(
            c -> {
              connectorSpace.update(
                  c,
                  List.of(
                      new CsoUpdate(
                          ids.get("E1"), "{\"name\":\"Ada L\"}", "h1b", CsoState.Normal, "run-2")));
              connectorSpace.clearSyncPending(c, List.of(ids.get("E2")));
              return null;
            });

    Map<String, CsoRow> found =
        store()
            .inTransaction(
                c -> connectorSpace.findByAnchors(c, "hr", "person", List.of("E1", "E2", "E3")));
    assertThat(found.get("E1").attributes()).containsEntry("name", "Ada L");
    assertThat(found.get("E1").contentHash()).isEqualTo("h1b");
    assertThat(found.get("E2").syncPending()).isFalse();
    List<CsoRow> notSeen =
        store().inTransaction(c -> connectorSpace.findNotSeen(c, "hr", "run-2", 0, 10));
    List<CsoRow> pending =
        store().inTransaction(c -> connectorSpace.pageForSync(c, "hr", 0, 10, true));
    assertThat(notSeen).extracting(CsoRow::anchor).containsExactly("E2");
    assertThat(pending).extracting(CsoRow::anchor).containsExactly("E1");
  }

  @Test
  void aPageOfMoreCsosThanOneInListHeldIsFoundByAnchorAndByMvoInOneLookup() {
    List<String> anchors = IntStream.range(0, 2_500).mapToObj(i -> "E" + i).toList();
    List<MvoRow> mvos = new ArrayList<>();
    List<NewCso> csos = new ArrayList<>();
    for (String anchor : anchors) {
      mvos.add(new MvoRow("m-" + anchor, "person", Map.of(), null));
      csos.add(
          new NewCso(
              "hr",
              "person",
              anchor,
              "{}",
              "h",
              CsoState.Normal,
              "m-" + anchor,
              "Joined",
              false,
              "r"));
    }
    // The same anchor in another system is not one of hr's.
    csos.add(
        new NewCso("badge", "person", "E7", "{}", "h", CsoState.Normal, null, null, true, "r"));
    Map<String, Long> ids =
        store()
            .inTransaction(
                c -> {
                  metaverse.insert(c, mvos);
                  return connectorSpace.insert(c, csos);
                });

    Map<String, CsoRow> byAnchor =
        store().inTransaction(c -> connectorSpace.findByAnchors(c, "hr", "person", anchors));
    List<CsoRow> byMvo =
        store()
            .inTransaction(
                c -> connectorSpace.findByMvoIds(c, List.of("m-E0", "m-E1999", "m-E2499", "m-X")));
    assertThat(byAnchor).hasSize(2_500);
    assertThat(byAnchor.get("E7").connectedSystem()).isEqualTo("hr");
    assertThat(byAnchor.get("E2499").id()).isEqualTo(ids.get("E2499"));
    assertThat(byMvo).extracting(CsoRow::anchor).containsExactlyInAnyOrder("E0", "E1999", "E2499");
  }

  @Test
  void aPageOfUpdatesKeepsEachObjectsLastStateAndItsKeys() {
    MvoRow ada = new MvoRow("m-1", "person", Map.of("employeeId", "E1", "name", "Ada"), null);
    MvoRow bob = new MvoRow("m-2", "person", Map.of("employeeId", "E2", "name", "Bob"), null);
    NewCso cso =
        new NewCso("hr", "person", "E1", "{}", "h1", CsoState.Normal, null, null, true, "run-1");
    Map<String, Long> ids =
        store()
            .inTransaction(
                c -> {
                  metaverse.insert(c, List.of(ada, bob));
                  return connectorSpace.insert(c, List.of(cso));
                });
    long csoId = ids.get("E1");
    // Nanoseconds, as a clock may give them: stored rounded to microseconds either way.
    Instant eligible = Instant.parse("2026-02-27T10:15:30.123456500Z");
    store()
        .inTransaction(
            c -> {
              metaverse.update(
                  c,
                  List.of(
                      new MvoRow(
                          "m-1", "person", Map.of("employeeId", "E1", "name", "Ada L"), null),
                      new MvoRow("m-2", "person", Map.of("employeeId", "E2"), null),
                      new MvoRow(
                          "m-2", "person", Map.of("employeeId", "E2", "name", "B"), eligible)));
              connectorSpace.update(
                  c,
                  List.of(
                      new CsoUpdate(csoId, "{\"name\":\"A\"}", "h2", CsoState.Normal, "run-2"),
                      new CsoUpdate(csoId, "{\"name\":\"Ada\"}", "h3", CsoState.Normal, "run-2")));
              connectorSpace.join(c, Map.of(csoId, "m-1"), "Joined");
              return null;
            });

    Map<String, MvoRow> found =
        store().inTransaction(c -> metaverse.findByIds(c, List.of("m-1", "m-2")));
    Map<String, List<String>> byKey =
        store()
            .inTransaction(
                c -> metaverse.findByKey(c, "person", "employeeId", List.of("E1", "E2")));
    Instant stored = Instant.parse("2026-02-27T10:15:30.123457Z");
    List<MvoRow> due = store().inTransaction(c -> metaverse.findDueForDeletion(c, stored, 10));
    CsoRow updated =
        store()
            .inTransaction(c -> connectorSpace.findByAnchors(c, "hr", "person", List.of("E1")))
            .get("E1");
    assertThat(found.get("m-1").attributes()).containsEntry("name", "Ada L");
    assertThat(found.get("m-2").attributes()).containsEntry("name", "B");
    assertThat(byKey)
        .containsOnly(Map.entry("E1", List.of("m-1")), Map.entry("E2", List.of("m-2")));
    assertThat(due).extracting(MvoRow::deletionEligibleAt).containsExactly(stored);
    assertThat(updated.contentHash()).isEqualTo("h3");
    assertThat(updated.attributes()).containsEntry("name", "Ada");
    assertThat(updated.mvoId()).isEqualTo("m-1");
    assertThat(updated.joinType()).isEqualTo("Joined");
    assertThat(updated.syncPending()).isFalse();
  }

  @Test
  void aDuplicateAnchorInOneSystemIsRejected() {
    NewCso cso =
        new NewCso("hr", "person", "E1", "{}", "h", CsoState.Normal, null, null, true, "r");
    store().inTransaction(c -> connectorSpace.insert(c, List.of(cso)));
    assertThatThrownBy(() -> store().inTransaction(c -> connectorSpace.insert(c, List.of(cso))))
        .isInstanceOf(StoreException.class);
  }

  @Test
  void aPageOfCreatedObjectsGetsTheAnchorsTheirDirectoryAssignedAndNoOtherObjectChanges() {
    List<String> provisional = IntStream.range(0, 600).mapToObj(i -> "provisional-" + i).toList();
    Map<String, Long> ids =
        store()
            .inTransaction(
                c ->
                    connectorSpace.insert(
                        c, provisional.stream().map(StoreContractTest::provisionedUser).toList()));
    Map<Long, String> assigned = new LinkedHashMap<>();
    for (int i = 0; i < 500; i++) {
      assigned.put(ids.get("provisional-" + i), "uuid-" + i);
    }

    store()
        .inTransaction(
            c -> {
              connectorSpace.updateAnchors(c, assigned);
              connectorSpace.updateAnchors(c, Map.of());
              return null;
            });

    List<String> all = new ArrayList<>(provisional);
    all.addAll(assigned.values());
    Map<String, CsoRow> found =
        store().inTransaction(c -> connectorSpace.findByAnchors(c, "directory", "user", all));
    assertThat(found).hasSize(600);
    assertThat(found.get("uuid-0").id()).isEqualTo(ids.get("provisional-0"));
    assertThat(found.get("uuid-499").id()).isEqualTo(ids.get("provisional-499"));
    assertThat(found).doesNotContainKeys("provisional-0", "provisional-499");
    assertThat(found.get("provisional-500").id()).isEqualTo(ids.get("provisional-500"));
    // An anchor another object of the system holds is refused, and nothing of the page is written.
    Map<Long, String> clash =
        new LinkedHashMap<>(
            Map.of(ids.get("provisional-500"), "uuid-new", ids.get("provisional-501"), "uuid-1"));
    assertThatThrownBy(
            () ->
                store()
                    .inTransaction(
                        c -> {
                          connectorSpace.updateAnchors(c, clash);
                          return null;
                        }))
        .isInstanceOf(StoreException.class);
    Map<String, CsoRow> afterClash =
        store()
            .inTransaction(
                c ->
                    connectorSpace.findByAnchors(
                        c, "directory", "user", List.of("uuid-new", "provisional-500")));
    assertThat(afterClash).containsOnlyKeys("provisional-500");
  }

  @Test
  void mvosAreFoundByTheirJoinKeyAndDueDeletionsByDate() {
    MvoRow ada = new MvoRow("m-1", "person", Map.of("employeeId", "E1", "name", "Ada"), null);
    MvoRow bob =
        new MvoRow(
            "m-2", "person", Map.of("employeeId", "E2"), CLOCK.instant().minus(Duration.ofDays(1)));
    store()
        .inTransaction(
            c -> {
              metaverse.insert(c, List.of(ada, bob));
              return null;
            });
    Map<String, List<String>> byKey =
        store()
            .inTransaction(
                c -> metaverse.findByKey(c, "person", "employeeId", List.of("E1", "E9")));
    assertThat(byKey).containsOnly(Map.entry("E1", List.of("m-1")));

    store()
        .inTransaction(
            c -> {
              metaverse.update(
                  c, List.of(new MvoRow("m-1", "person", Map.of("employeeId", "E7"), null)));
              return null;
            });
    Map<String, List<String>> afterUpdate =
        store()
            .inTransaction(
                c -> metaverse.findByKey(c, "person", "employeeId", List.of("E1", "E7")));
    List<MvoRow> due =
        store().inTransaction(c -> metaverse.findDueForDeletion(c, CLOCK.instant(), 10));
    assertThat(afterUpdate).containsOnly(Map.entry("E7", List.of("m-1")));
    assertThat(due).extracting(MvoRow::id).containsExactly("m-2");
  }

  @Test
  void pendingExportsMoveFromPendingToExportedToConfirmed() {
    Map<String, Long> ids =
        store().inTransaction(c -> connectorSpace.insert(c, List.of(provisionedUser("E1"))));
    long csoId = ids.get("E1");
    store()
        .inTransaction(
            c -> {
              pendingExports.insert(
                  c,
                  List.of(
                      new NewPendingExport(
                          "directory",
                          csoId,
                          null,
                          ExportChange.Create,
                          Map.of("employeeId", "E1", "mail", "ada@example.org"),
                          false,
                          "run-1")));
              return null;
            });
    List<PendingExportRow> pending =
        store().inTransaction(c -> pendingExports.findPendingAfter(c, "directory", 0, 10));
    assertThat(pending)
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.anchor()).isEqualTo("E1");
              assertThat(p.attributes()).containsEntry("mail", "ada@example.org");
            });

    store()
        .inTransaction(
            c -> {
              pendingExports.markExported(c, List.of(pending.get(0).id()));
              return null;
            });
    Map<Long, List<PendingExportRow>> open =
        store().inTransaction(c -> pendingExports.findOpenByCso(c, List.of(csoId)));
    assertThat(open.get(csoId))
        .singleElement()
        .extracting(PendingExportRow::status)
        .isEqualTo(ExportStatus.Exported);

    store()
        .inTransaction(
            c -> {
              pendingExports.markConfirmed(c, List.of(pending.get(0).id()));
              return null;
            });
    long stillOpen = store().inTransaction(c -> pendingExports.countOpen(c, "directory"));
    assertThat(stillOpen).isZero();
  }

  @Test
  void pendingExportsArePagedInIdOrderUpToABoundAndFoundByAnchor() {
    List<NewCso> csos = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      csos.add(
          new NewCso(
              "directory", "user", "E" + i, "{}", "h", CsoState.Normal, null, null, false, "r"));
    }
    Map<String, Long> ids = store().inTransaction(c -> connectorSpace.insert(c, csos));
    // The same anchor in another system, with an export of its own.
    long badge =
        store()
            .inTransaction(
                c ->
                    connectorSpace.insert(
                        c,
                        List.of(
                            new NewCso(
                                "badges",
                                "badge",
                                "E1",
                                "{}",
                                "h",
                                CsoState.Normal,
                                null,
                                null,
                                false,
                                "r"))))
            .get("E1");
    // E3 gets two exports (an update after its create), E5 none; E2's is already exported.
    List<NewPendingExport> exports = new ArrayList<>();
    for (String anchor : List.of("E1", "E2", "E3", "E4", "E3")) {
      exports.add(
          new NewPendingExport(
              "directory",
              ids.get(anchor),
              "m-" + anchor,
              ExportChange.Create,
              Map.of("mail", anchor + "@example.org"),
              false,
              "run-1"));
    }
    exports.add(
        new NewPendingExport(
            "badges", badge, "m-E1", ExportChange.Create, Map.of(), false, "run-1"));
    store()
        .inTransaction(
            c -> {
              // One at a time: ids in this order.
              for (NewPendingExport export : exports) {
                pendingExports.insert(c, List.of(export));
              }
              return null;
            });
    List<PendingExports.PendingRef> all =
        store()
            .inTransaction(
                c -> pendingExports.findPendingRefs(c, "directory", 0, Long.MAX_VALUE, 10));
    long e2 = all.get(1).id();
    store()
        .inTransaction(
            c -> {
              pendingExports.markExported(c, List.of(e2));
              return null;
            });
    PendingExports.PendingRange range =
        store().inTransaction(c -> pendingExports.pendingRange(c, "directory", Long.MAX_VALUE));
    long bound = all.get(3).id();

    List<PendingExports.PendingRef> first =
        store().inTransaction(c -> pendingExports.findPendingRefs(c, "directory", 0, bound, 2));
    List<PendingExports.PendingRef> next =
        store()
            .inTransaction(
                c -> pendingExports.findPendingRefs(c, "directory", first.get(1).id(), bound, 2));
    Map<String, List<PendingExportRow>> byAnchor =
        store()
            .inTransaction(
                c ->
                    pendingExports.findPendingByAnchors(
                        c, "directory", List.of("E1", "E2", "E3", "E5", "X"), bound));

    assertThat(all)
        .extracting(PendingExports.PendingRef::anchor)
        .containsExactly("E1", "E2", "E3", "E4", "E3");
    assertThat(range).isEqualTo(new PendingExports.PendingRange(all.get(4).id(), 4));
    assertThat(first).extracting(PendingExports.PendingRef::anchor).containsExactly("E1", "E3");
    assertThat(first.get(0))
        .isEqualTo(new PendingExports.PendingRef(all.get(0).id(), ids.get("E1"), "m-E1", "E1"));
    assertThat(next).extracting(PendingExports.PendingRef::anchor).containsExactly("E4");
    // Up to the bound: E3's update (after it) is not one of them; other systems' exports neither.
    assertThat(byAnchor).containsOnlyKeys("E1", "E3");
    assertThat(byAnchor.get("E1"))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.connectedSystem()).isEqualTo("directory");
              assertThat(e.attributes()).containsEntry("mail", "E1@example.org");
            });
    assertThat(byAnchor.get("E3"))
        .extracting(PendingExportRow::id)
        .containsExactly(all.get(2).id());
  }

  @Test
  void aPageOfReplacementsChangesOnlyTheExportsStillPending() {
    Map<String, Long> csos =
        store()
            .inTransaction(
                c ->
                    connectorSpace.insert(
                        c,
                        List.of(
                            provisionedUser("E1"), provisionedUser("E2"), provisionedUser("E3"))));
    store()
        .inTransaction(
            c -> {
              pendingExports.insert(
                  c,
                  csos.values().stream()
                      .map(
                          id ->
                              new NewPendingExport(
                                  "directory",
                                  id,
                                  null,
                                  ExportChange.Create,
                                  Map.of("mail", "old@example.org"),
                                  false,
                                  "run-1"))
                      .toList());
              return null;
            });
    Map<Long, Long> exportByCso = new HashMap<>();
    store()
        .inTransaction(c -> pendingExports.findOpenByCso(c, csos.values()))
        .forEach((cso, exports) -> exportByCso.put(cso, exports.get(0).id()));
    long exported = exportByCso.get(csos.get("E3"));
    store()
        .inTransaction(
            c -> {
              pendingExports.markExported(c, List.of(exported));
              pendingExports.replace(
                  c,
                  List.of(
                      new PendingExports.Replacement(
                          exportByCso.get(csos.get("E1")),
                          ExportChange.Create,
                          Map.of("mail", "e1@example.org")),
                      new PendingExports.Replacement(
                          exportByCso.get(csos.get("E2")),
                          ExportChange.Update,
                          Map.of("mail", "e2@example.org")),
                      new PendingExports.Replacement(
                          exported, ExportChange.Update, Map.of("mail", "e3@example.org"))));
              return null;
            });

    Map<String, String> byAnchor = new HashMap<>();
    store()
        .inTransaction(c -> pendingExports.findOpenByCso(c, csos.values()))
        .forEach(
            (cso, exports) ->
                exports.forEach(
                    e ->
                        byAnchor.put(
                            e.anchor(), e.status() + " " + e.change() + " " + e.attributes())));
    assertThat(byAnchor)
        .containsOnly(
            Map.entry("E1", "Pending Create {mail=e1@example.org}"),
            Map.entry("E2", "Pending Update {mail=e2@example.org}"),
            // Already exported: what it asked for was sent, so it keeps it.
            Map.entry("E3", "Exported Create {mail=old@example.org}"));
  }

  @Test
  void anMvosDeletionInitiatorIsTheOneMarkedWhileItsDateHoldsElseTheRunOfItsLatestChange() {
    Instant due = CLOCK.instant().minus(Duration.ofDays(1));
    Initiator ada = new Initiator(InitiatorType.User, "ada", "Ada Admin");
    List<MvoRow> mvos =
        IntStream.rangeClosed(1, 4)
            .mapToObj(i -> new MvoRow("m-" + i, "person", Map.of("employeeId", "E" + i), due))
            .toList();
    store()
        .inTransaction(
            c -> {
              metaverse.insert(c, mvos);
              String nightly = runRecords.create(c, newRun());
              String manual =
                  runRecords.create(
                      c,
                      new NewRunRecord(
                          "hr",
                          "full-sync",
                          RunType.FullSynchronisation,
                          new RunOrigin("User", "bob", "Bob", "exec-2", null, 0, "sync")));
              history.recordMvoChanges(
                  c,
                  nightly,
                  List.of(
                      new ChangeHistory.MvoChange("m-2", ChangeType.Projected, Map.of()),
                      new ChangeHistory.MvoChange("m-3", ChangeType.Projected, Map.of())));
              history.recordMvoChanges(
                  c,
                  manual,
                  List.of(new ChangeHistory.MvoChange("m-3", ChangeType.AttributeFlow, Map.of())));
              metaverse.markForDeletion(c, "m-1", due, ada, "system deleted");
              // Marked for another date than the one it now has: that mark no longer holds.
              metaverse.markForDeletion(c, "m-2", due.minus(Duration.ofDays(3)), ada, "earlier");
              return null;
            });

    Map<String, Initiator> initiators =
        store().inTransaction(c -> metaverse.deletionInitiators(c, mvos));

    assertThat(initiators)
        .containsOnly(
            Map.entry("m-1", ada),
            Map.entry("m-2", new Initiator(InitiatorType.Schedule, "nightly", "Nightly HR Sync")),
            Map.entry("m-3", new Initiator(InitiatorType.User, "bob", "Bob")));
  }

  @Test
  void changeHistoryIsKeptUntilItsRetentionEnds() {
    store()
        .inTransaction(
            c -> {
              history.recordCsoChanges(
                  c,
                  "run-1",
                  List.of(
                      new ChangeHistory.CsoChange(
                          7, "hr", "E1", ChangeType.Added, Map.of("a", "1"))));
              history.recordMvoChanges(
                  c,
                  "run-2",
                  List.of(
                      new ChangeHistory.MvoChange("m-1", ChangeType.Projected, Map.of("a", "1"))));
              return null;
            });
    List<ChangeType> csoChanges = store().inTransaction(c -> history.csoChanges(c, 7));
    List<ChangeType> mvoChanges = store().inTransaction(c -> history.mvoChanges(c, "m-1"));
    assertThat(csoChanges).containsExactly(ChangeType.Added);
    assertThat(mvoChanges).containsExactly(ChangeType.Projected);

    int notYet = store().inTransaction(c -> purgeBefore(history, c, CLOCK.instant()));
    int expired =
        store().inTransaction(c -> purgeBefore(history, c, CLOCK.instant().plusSeconds(1)));
    assertThat(notYet).isZero();
    assertThat(expired).isEqualTo(2);
  }

  @Test
  void aCancelledExecutionKeepsWhoCancelledItAndWhenWithANameCutToItsColumn() {
    ExecutionRecords executions = new ExecutionRecords(CLOCK);
    Instant started = CLOCK.instant().minusSeconds(60);
    Instant ended = CLOCK.instant().minusSeconds(5);
    String tooLong = "x".repeat(5_000);
    store()
        .inTransaction(
            c -> {
              executions.save(
                  c,
                  1,
                  cancelled(
                      "by-alice",
                      new Initiator(InitiatorType.User, "alice", "alice"),
                      started,
                      ended));
              executions.save(c, 1, cancelled("by-nobody", null, started, ended));
              executions.save(
                  c,
                  1,
                  cancelled(
                      "by-a-long-name",
                      new Initiator(InitiatorType.ApiKey, tooLong, tooLong),
                      started,
                      ended));
              return null;
            });

    ExecutionRecord alice =
        store().inTransaction(c -> executions.find(c, "by-alice")).orElseThrow();
    assertThat(alice.status()).isEqualTo(ExecutionStatus.Cancelled);
    assertThat(alice.cancelledBy()).isEqualTo(new Initiator(InitiatorType.User, "alice", "alice"));
    assertThat(alice.endedAt()).isEqualTo(ended);
    assertThat(alice.message()).startsWith("Cancelled by User alice");
    assertThat(
            store().inTransaction(c -> executions.find(c, "by-nobody")).orElseThrow().cancelledBy())
        .isNull();
    assertThat(
            store()
                .inTransaction(c -> executions.find(c, "by-a-long-name"))
                .orElseThrow()
                .cancelledBy()
                .id())
        .hasSize(200);
  }

  private static ExecutionRecord cancelled(
      String id, Initiator canceller, Instant started, Instant ended) {
    return new ExecutionRecord(
        id,
        "run-1",
        "nightly",
        "Nightly",
        TriggerKind.Manual,
        new Initiator(InitiatorType.User, "bob", "bob"),
        ExecutionStatus.Cancelled,
        canceller == null
            ? "Cancelled during step group 1 of 2: 1 step(s) cancelled, 1 skipped"
            : "Cancelled by User alice during step group 1 of 2: 1 step(s) cancelled, 1 skipped",
        2,
        2,
        started,
        ended,
        canceller,
        List.of());
  }

  /** Both histories' entries written before the cutoff, in one batch each. */
  private static int purgeBefore(ChangeHistory history, Connection c, Instant cutoff)
      throws SQLException {
    return history.purgeBefore(c, ChangeHistory.Subject.CSO, cutoff, 100)
        + history.purgeBefore(c, ChangeHistory.Subject.MVO, cutoff, 100);
  }
}
