package io.jimflow.sync;

import java.util.Map;

/**
 * One attribute condition of a sync rule's scope.
 *
 * @param value compared with the attribute; unused by PRESENT and ABSENT
 */
public record Condition(String attribute, Operator operator, String value) {

  /** How an attribute is tested; an attribute that is missing or empty counts as absent. */
  public enum Operator {
    EQUALS,
    NOT_EQUALS,
    PRESENT,
    ABSENT,
    STARTS_WITH
  }

  public boolean matches(Map<String, String> attributes) {
    String actual = attributes.get(attribute);
    boolean present = actual != null && !actual.isEmpty();
    return switch (operator) {
      case EQUALS -> present && actual.equals(value);
      case NOT_EQUALS -> !present || !actual.equals(value);
      case PRESENT -> present;
      case ABSENT -> !present;
      case STARTS_WITH -> present && value != null && actual.startsWith(value);
    };
  }
}
