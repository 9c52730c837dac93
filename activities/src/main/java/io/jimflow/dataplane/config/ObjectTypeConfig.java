package io.jimflow.dataplane.config;

import java.util.List;

/**
 * An object type of a connected system.
 *
 * @param attributes the columns of its files, in order; the anchor is one of them
 */
public record ObjectTypeConfig(String name, String anchor, List<String> attributes) {
  public ObjectTypeConfig {
    attributes = List.copyOf(attributes);
  }
}
