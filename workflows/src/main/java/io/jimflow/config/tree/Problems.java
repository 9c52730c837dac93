package io.jimflow.config.tree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects the problems of one configuration file, so that a single report can list all of them.
 */
public final class Problems {

  private final String source;
  private final List<ConfigProblem> found = new ArrayList<>();

  public Problems(String source) {
    this.source = source;
  }

  public String source() {
    return source;
  }

  /** Records a problem at a node's line and path. */
  public void at(ConfigNode node, String message) {
    found.add(new ConfigProblem(source, node.line(), node.path(), message));
  }

  /** Records a problem at an explicit line and path (e.g. a mapping key rather than its value). */
  public void at(int line, String path, String message) {
    found.add(new ConfigProblem(source, line, path, message));
  }

  public boolean isEmpty() {
    return found.isEmpty();
  }

  /**
   * Every problem, sorted by line (stable, so problems on one line keep the order they were found).
   */
  public List<ConfigProblem> list() {
    List<ConfigProblem> sorted = new ArrayList<>(found);
    sorted.sort(Comparator.comparingInt(ConfigProblem::line));
    return List.copyOf(sorted);
  }

  /** Throws a {@link ConfigException} listing every problem, if there is any. */
  public void throwIfAny() {
    if (!found.isEmpty()) {
      throw new ConfigException(list());
    }
  }
}
