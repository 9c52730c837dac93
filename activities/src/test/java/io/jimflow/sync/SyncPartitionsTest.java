package io.jimflow.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.sync.SyncPartitions.PageCso;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SyncPartitionsTest {

  private static final SyncEngine ENGINE = PeopleRules.ENGINE;

  /**
   * A page CSO written as {@code id[>mvo] attribute=value ...}, {@code obsolete} for one that left
   * its system; an MVO as {@code id attribute=value ...}.
   */
  static Stream<Arguments> pages() {
    return Stream.of(
        Arguments.of(
            "people with nothing in common spread",
            "1 department=it employeeId=e1; 2 department=it employeeId=e2",
            "",
            4,
            "1|2"),
        Arguments.of(
            "two new people with the same employeeId: the second joins the first's projection",
            "1 department=it employeeId=e1; 2 department=it employeeId=e2; 3 department=it"
                + " employeeId=e1",
            "",
            4,
            "1,3|2"),
        Arguments.of(
            "the same mail links, whichever join pair would find the MVO",
            "1 department=it employeeId=e1 email=a@x; 2 department=it employeeId=e2 email=a@x",
            "",
            4,
            "1,2"),
        Arguments.of(
            "a joined person and a new one whose lookup finds its MVO",
            "1>m1 department=it employeeId=e1; 2 department=it employeeId=e9 email=one@x",
            "m1 employeeId=e1 mail=one@x",
            4,
            "1,2"),
        Arguments.of(
            "a flow that gives an MVO the key another looks up",
            "1>m1 department=it employeeId=e2; 2 department=it employeeId=e2",
            "m1 employeeId=e1",
            4,
            "1,2"),
        Arguments.of(
            "a flow that moves an MVO's key away from the one another looks up",
            "1>m1 department=it employeeId=e2; 2 department=it employeeId=e1",
            "m1 employeeId=e1",
            4,
            "1,2"),
        Arguments.of(
            "two people who would take the same directory anchor",
            "1 department=it employeeId=e1 login=jdoe; 2 department=it employeeId=e2 login=jdoe",
            "",
            4,
            "1,2"),
        Arguments.of(
            "a new person taking the anchor an MVO of the page holds",
            "1>m1 department=it employeeId=e1; 2 department=it employeeId=e2 login=jdoe",
            "m1 employeeId=e1 accountName=jdoe",
            4,
            "1,2"),
        Arguments.of(
            "two CSOs joined to one MVO",
            "1>m1 obsolete; 2>m1 department=it employeeId=e1",
            "m1 employeeId=e1",
            4,
            "1,2"),
        Arguments.of(
            "an obsolete CSO and an out-of-scope one touch only their own MVOs",
            "1>m1 obsolete employeeId=e2; 2 employeeId=e1; 3 department=it employeeId=e2",
            "m1 employeeId=e1",
            4,
            "1|2|3"),
        Arguments.of(
            "multi-valued keys in another order are the same key",
            "1 department=it email=b@x|a@x; 2 department=it email=a@x|b@x",
            "",
            4,
            "1,2"),
        Arguments.of(
            "more groups than partitions: largest first, into the least filled",
            "1 department=it employeeId=e1; 2 department=it employeeId=e2; 3 department=it"
                + " employeeId=e1; 4 department=it employeeId=e3; 5 department=it employeeId=e4",
            "",
            2,
            "1,3,5|2,4"),
        Arguments.of(
            "one partition holds the whole page in order",
            "3 department=it employeeId=e3; 1 department=it employeeId=e1",
            "",
            1,
            "3,1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pages")
  void partitionsNeverShareAnIdentity(
      String situation, String page, String mvos, int count, String expected) {
    List<List<Long>> partitions =
        new SyncPartitions(ENGINE).partition(csos(page), mvoStates(mvos), count);

    assertThat(render(partitions)).as(situation).isEqualTo(expected);
  }

  @Test
  void aPageNeedsAPartition() {
    assertThatThrownBy(() -> new SyncPartitions(ENGINE).partition(List.of(), List.of(), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one partition, not 0");
  }

  private static List<PageCso> csos(String page) {
    List<PageCso> csos = new ArrayList<>();
    for (String text : page.split(";")) {
      String[] words = text.trim().split(" ");
      String[] idAndMvo = words[0].split(">");
      boolean obsolete = false;
      Map<String, String> attributes = new HashMap<>();
      for (int i = 1; i < words.length; i++) {
        if (words[i].equals("obsolete")) {
          obsolete = true;
        } else {
          String[] pair = words[i].split("=");
          attributes.put(pair[0], pair[1].replace('|', MultiValue.SEPARATOR.charAt(0)));
        }
      }
      csos.add(
          new PageCso(
              Long.parseLong(idAndMvo[0]),
              new CsoFacts("hr", "person", attributes, obsolete),
              idAndMvo.length > 1 ? idAndMvo[1] : null));
    }
    return csos;
  }

  private static List<MvoState> mvoStates(String mvos) {
    List<MvoState> states = new ArrayList<>();
    if (mvos.isEmpty()) {
      return states;
    }
    for (String text : mvos.split(";")) {
      String[] words = text.trim().split(" ");
      Map<String, String> attributes = new HashMap<>();
      for (int i = 1; i < words.length; i++) {
        String[] pair = words[i].split("=");
        attributes.put(pair[0], pair[1]);
      }
      states.add(new MvoState(words[0], "person", attributes, null));
    }
    return states;
  }

  private static String render(List<List<Long>> partitions) {
    return String.join(
        "|",
        partitions.stream()
            .map(p -> String.join(",", p.stream().map(String::valueOf).toList()))
            .toList());
  }
}
