package io.jimflow.store;

import java.util.LinkedHashMap;
import java.util.Map;

/** The running totals of one run record; not thread-safe (one run, one thread). */
public final class RunTotals {

  private final long[] values = new long[Total.values().length];

  public long get(Total total) {
    return values[total.ordinal()];
  }

  public void add(Total total, long amount) {
    values[total.ordinal()] += amount;
  }

  public void increment(Total total) {
    add(total, 1);
  }

  public void set(Total total, long value) {
    values[total.ordinal()] = value;
  }

  public RunTotals copy() {
    RunTotals copy = new RunTotals();
    System.arraycopy(values, 0, copy.values, 0, values.length);
    return copy;
  }

  /** The totals by their statistic name, in declaration order. */
  public Map<String, Long> asMap() {
    Map<String, Long> map = new LinkedHashMap<>();
    for (Total total : Total.values()) {
      map.put(total.statName(), get(total));
    }
    return map;
  }
}
