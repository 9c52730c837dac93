package io.jimflow.schedule;

import java.util.ArrayList;
import java.util.List;

/**
 * One object a run would change, with the values of its changed attributes before and after: what a
 * held step's message and a preview show of what would change. Bounded where it is made: a few
 * objects per change, a few attributes per object, values cut short.
 *
 * @param change what would happen to it: Create, Update or Delete
 * @param anchor the object's anchor in its connected system
 * @param attributes its changed attributes (none for a Delete)
 * @param more how many more changed attributes it has than are shown
 */
public record ChangeSample(
    String change, String anchor, List<AttributeChange> attributes, int more) {

  public ChangeSample {
    attributes = attributes == null ? List.of() : List.copyOf(attributes);
  }

  /**
   * @param before the value the target holds now, null when it holds none
   * @param after the value it would hold, null when none
   */
  public record AttributeChange(String name, String before, String after) {}

  /** One line, e.g. {@code Update E7: title 'Engineer' -> 'Architect'}. */
  public String describe() {
    StringBuilder text = new StringBuilder(change).append(' ').append(anchor);
    List<String> changes = new ArrayList<>();
    for (AttributeChange attribute : attributes) {
      changes.add(
          attribute.name() + " " + quoted(attribute.before()) + " -> " + quoted(attribute.after()));
    }
    if (more > 0) {
      changes.add("and " + more + " more");
    }
    if (!changes.isEmpty()) {
      text.append(": ").append(String.join("; ", changes));
    }
    return text.toString();
  }

  private static String quoted(String value) {
    return value == null ? "(none)" : "'" + value + "'";
  }
}
