package io.jimflow.sync;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.sync.SyncPartitions.PageCso;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random pages, crowded with shared employeeIds, mails and logins, synchronised by the sync engine
 * in page order on one state, and partition by partition in reverse order: the metaverse, the
 * joins, the error items and the directory anchors provisioning takes come out the same. Partitions
 * that shared an identity would make the later partition see, or lose to, the other's writes.
 */
class SyncPartitionsEquivalenceTest {

  private static final SyncEngine ENGINE = PeopleRules.ENGINE;

  @Test
  void partitionsInAnyOrderGiveWhatOnePageInOrderGives() {
    int split = 0;
    for (int seed = 0; seed < 2000; seed++) {
      Random random = new Random(seed);
      Page page = Page.random(random);
      List<List<Long>> partitions = new SyncPartitions(ENGINE).partition(page.csos, page.mvos(), 4);
      if (partitions.size() > 1) {
        split++;
      }

      Page inOrder = page.copy();
      inOrder.synchronise(page.csos.stream().map(PageCso::id).toList());
      Page partitioned = page.copy();
      for (int i = partitions.size() - 1; i >= 0; i--) {
        partitioned.synchronise(partitions.get(i));
      }

      assertThat(partitioned.outcome()).as("seed " + seed).isEqualTo(inOrder.outcome());
    }
    assertThat(split).as("pages that were split at all").isGreaterThan(1000);
  }

  /** A page and the metaverse it meets, synchronised as a synchronisation page is. */
  private static final class Page {
    final List<PageCso> csos = new ArrayList<>();
    final Map<String, Map<String, String>> mvos = new TreeMap<>();
    final Map<Long, String> joins = new TreeMap<>();
    final Map<String, String> anchors = new TreeMap<>();
    final Set<String> errors = new java.util.TreeSet<>();

    static Page random(Random random) {
      Page page = new Page();
      for (int m = 1; m <= 4; m++) {
        Map<String, String> attributes = new HashMap<>();
        maybe(random, attributes, "employeeId", "e", 6);
        maybe(random, attributes, "mail", "mail", 4);
        maybe(random, attributes, "accountName", "login", 5);
        page.mvos.put("m" + m, attributes);
        if (attributes.containsKey("accountName")) {
          page.anchors.putIfAbsent(attributes.get("accountName"), "m" + m);
        }
      }
      for (long id = 1; id <= 12; id++) {
        Map<String, String> attributes = new HashMap<>();
        if (random.nextInt(10) < 8) {
          attributes.put("department", "d" + random.nextInt(2));
        }
        maybe(random, attributes, "employeeId", "e", 6);
        maybe(random, attributes, "email", "mail", 4);
        maybe(random, attributes, "login", "login", 5);
        String mvoId = random.nextInt(3) == 0 ? "m" + (1 + random.nextInt(4)) : null;
        boolean obsolete = mvoId != null && random.nextInt(4) == 0;
        page.csos.add(new PageCso(id, new CsoFacts("hr", "person", attributes, obsolete), mvoId));
        if (mvoId != null) {
          page.joins.put(id, mvoId);
        }
      }
      return page;
    }

    private static void maybe(
        Random random, Map<String, String> attributes, String name, String prefix, int values) {
      if (random.nextInt(4) != 0) {
        attributes.put(name, prefix + random.nextInt(values));
      }
    }

    Page copy() {
      Page copy = new Page();
      copy.csos.addAll(csos);
      mvos.forEach((id, attributes) -> copy.mvos.put(id, new HashMap<>(attributes)));
      copy.joins.putAll(joins);
      copy.anchors.putAll(anchors);
      return copy;
    }

    List<MvoState> mvos() {
      return mvos.entrySet().stream()
          .map(e -> new MvoState(e.getKey(), "person", e.getValue(), null))
          .toList();
    }

    /** These CSOs in this order, then provisioning of the MVOs they changed, in that order. */
    void synchronise(List<Long> ids) {
      Set<String> changed = new LinkedHashSet<>();
      for (long id : ids) {
        PageCso cso = csos.stream().filter(c -> c.id() == id).findFirst().orElseThrow();
        String joined = joins.get(id);
        MvoState mvo =
            joined == null ? null : new MvoState(joined, "person", mvos.get(joined), null);
        InboundDecision decision = ENGINE.decideInbound(cso.facts(), mvo, candidates());
        switch (decision.kind()) {
          case PROJECT -> {
            String created = "p" + id;
            mvos.put(created, new HashMap<>(decision.mvoAttributeChanges()));
            joins.put(id, created);
            changed.add(created);
          }
          case JOIN, FLOW -> {
            joins.put(id, decision.mvoId());
            Map<String, String> attributes = mvos.get(decision.mvoId());
            decision
                .mvoAttributeChanges()
                .forEach(
                    (name, value) -> {
                      if (value == null) {
                        attributes.remove(name);
                      } else {
                        attributes.put(name, value);
                      }
                    });
            changed.add(decision.mvoId());
          }
          case DISCONNECT, DISCONNECT_OUT_OF_SCOPE -> joins.remove(id);
          case ERROR -> errors.add(id + " " + decision.errorType());
          case NONE -> {}
        }
      }
      for (String mvoId : changed) {
        String anchor = SyncEngine.value(mvos.get(mvoId), "accountName");
        if (anchor != null && !anchors.containsValue(mvoId)) {
          if (anchors.containsKey(anchor)) {
            errors.add(mvoId + " AnchorTaken " + anchor);
          } else {
            anchors.put(anchor, mvoId);
          }
        }
      }
    }

    private JoinCandidates candidates() {
      return new JoinCandidates() {
        @Override
        public List<MvoState> find(String mvoType, String mvoAttribute, String value) {
          return mvos.entrySet().stream()
              .filter(e -> value.equals(SyncEngine.value(e.getValue(), mvoAttribute)))
              .map(e -> new MvoState(e.getKey(), mvoType, e.getValue(), null))
              .toList();
        }

        @Override
        public boolean hasConnectorIn(String mvoId, String connectedSystem) {
          return joins.containsValue(mvoId);
        }
      };
    }

    Map<String, Object> outcome() {
      Map<String, Object> outcome = new LinkedHashMap<>();
      outcome.put("metaverse", mvos.toString());
      outcome.put("joins", joins.toString());
      outcome.put("errors", errors.toString());
      outcome.put("anchors", anchors.toString());
      return outcome;
    }
  }
}
