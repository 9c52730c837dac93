package io.jimflow.store;

import io.jimflow.testing.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A fresh, empty store for one benchmark run, migrated with every index: a new schema of the tests'
 * PostgreSQL ({@link TestStores#postgres()}, dropped on close). For figures of the embedded
 * default, run with {@code -Djimflow.test.postgres.durable=true}: the tests' embedded server then
 * flushes its write-ahead log on commit as a user's does ({@link TestPostgres}).
 *
 * <p>On PostgreSQL it also reads the CPU time the database's server processes spent (the backends
 * of {@code pg_stat_activity} for this database, {@code /proc/<pid>/stat}), which a profile of the
 * JVM does not see.
 */
public final class BenchmarkStore implements AutoCloseable {

  /** Which store: PostgreSQL, the only one since the embedded H2 store is gone (docs/store.md). */
  public enum Kind {
    POSTGRES;

    /** {@code postgres} (also {@code pg}). */
    public static Kind parse(String name) {
      return switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "postgres", "postgresql", "pg" -> POSTGRES;
        default ->
            throw new IllegalArgumentException(
                "unknown store '" + name + "': postgres (the H2 store is gone)");
      };
    }

    public String label() {
      return "PostgreSQL";
    }
  }

  /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private final Kind kind;
  private final Store store;

  private BenchmarkStore(Kind kind, Store store) {
    this.kind = kind;
    this.store = store;
  }

  /**
   * Opens a fresh store.
   *
   * @param unused where an earlier store kind kept its files; callers still pass a directory
   */
  public static BenchmarkStore open(Kind kind, Path unused) {
    return new BenchmarkStore(kind, TestStores.postgres());
  }

  public Kind kind() {
    return kind;
  }

  public Store store() {
    return store;
  }

  /** CPU time (user + system) each server process of this database has spent so far, by pid. */
  public Map<Integer, Long> serverCpuNanos() {
    Map<Integer, Long> cpu = new HashMap<>();
    store.inTransaction(
        c -> {
          try (Statement statement = c.createStatement();
              ResultSet rows =
                  statement.executeQuery(
                      "select pid from pg_stat_activity where datname = current_database()")) {
            while (rows.next()) {
              int pid = rows.getInt(1);
              Long nanos = processCpuNanos(pid);
              if (nanos != null) {
                cpu.put(pid, nanos);
              }
            }
          }
          return null;
        });
    return cpu;
  }

  /**
   * The PostgreSQL write-ahead log position in bytes (the whole cluster's: the benchmark runs
   * alone). The difference between two readings is what the database wrote to its log between them.
   */
  public long walPosition() {
    return store.inTransaction(
        c -> {
          try (Statement statement = c.createStatement();
              ResultSet rows =
                  statement.executeQuery("select pg_current_wal_lsn() - '0/0'::pg_lsn")) {
            rows.next();
            return rows.getLong(1);
          }
        });
  }

  /**
   * The CPU time the database's server processes spent between two readings of {@link
   * #serverCpuNanos()}; a process that started in between counts from zero, one that ended in
   * between is lost (the pool keeps its connections open, so that is rare).
   */
  public static long cpuNanosBetween(Map<Integer, Long> before, Map<Integer, Long> after) {
    long sum = 0;
    for (Map.Entry<Integer, Long> process : after.entrySet()) {
      sum += process.getValue() - before.getOrDefault(process.getKey(), 0L);
    }
    return sum;
  }

  private static Long processCpuNanos(int pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
      // Fields after the command name (which may hold spaces) in parentheses; utime and stime are
      // fields 14 and 15 of the line, 12 and 13 after the ")".
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      return ticks * (1_000_000_000L / TICKS_PER_SECOND);
    } catch (IOException | RuntimeException e) {
      // Not on this machine (a remote PostgreSQL), or the process just ended.
      return null;
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
