package io.jimflow.workitem.activities;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** The handlers a worker runs, by kind name; two handlers for one kind are refused at start-up. */
public final class WorkItemHandlerRegistry {

  private final Map<String, WorkItemHandler> byKind = new TreeMap<>();

  public WorkItemHandlerRegistry(Collection<? extends WorkItemHandler> handlers) {
    for (WorkItemHandler h : handlers) {
      WorkItemHandler previous = byKind.putIfAbsent(h.kind(), h);
      if (previous != null) {
        throw new IllegalArgumentException(
            "work item kind '"
                + h.kind()
                + "' has two handlers: "
                + previous.getClass().getName()
                + " and "
                + h.getClass().getName());
      }
    }
  }

  public Optional<WorkItemHandler> find(String kind) {
    return Optional.ofNullable(byKind.get(kind));
  }

  public Set<String> kinds() {
    return byKind.keySet();
  }
}
