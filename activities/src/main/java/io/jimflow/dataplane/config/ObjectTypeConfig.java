package io.jimflow.dataplane.config;

import java.util.List;

/**
 * An object type of a connected system.
 *
 * @param attributes the columns of its files, in order (CSV: the anchor is one of them), or the
 *     directory attributes it reads and writes (LDAP)
 * @param multiValued the attributes that hold several values (LDAP: {@code mail}, {@code member});
 *     their values travel as one text, see {@link io.jimflow.sync.MultiValue}
 */
public record ObjectTypeConfig(
    String name, String anchor, List<String> attributes, List<String> multiValued) {
  public ObjectTypeConfig {
    attributes = List.copyOf(attributes);
    multiValued = List.copyOf(multiValued);
  }

  public ObjectTypeConfig(String name, String anchor, List<String> attributes) {
    this(name, anchor, attributes, List.of());
  }

  public boolean isMultiValued(String attribute) {
    return multiValued.contains(attribute);
  }
}
