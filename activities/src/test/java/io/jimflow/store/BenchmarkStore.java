package io.jimflow.store;

import io.jimflow.testing.TestPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A fresh, empty store for one benchmark run, migrated with every index: an embedded H2 file in a
 * new directory (the settings of {@link StoreSettings#embedded}, what a worker runs by default), or
 * a new schema of the test PostgreSQL ({@link TestStores#postgres()}, dropped on close).
 *
 * <p>On PostgreSQL it also reads the CPU time the database's server processes spent (the backends
 * of {@code pg_stat_activity} for this database, {@code /proc/<pid>/stat}), which a profile of the
 * JVM does not see.
 */
public final class BenchmarkStore implements AutoCloseable {

  /** Which store: the embedded H2 default or PostgreSQL. */
  public enum Kind {
    H2,
    POSTGRES;

    /** {@code h2} or {@code postgres} (also {@code pg}). */
    public static Kind parse(String name) {
      return switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "h2" -> H2;
        case "postgres", "postgresql", "pg" -> POSTGRES;
        default ->
            throw new IllegalArgumentException(
                "unknown store '" + name + "': h2 or postgres (JIMFLOW_TEST_POSTGRES_URL)");
      };
    }

    public String label() {
      return this == H2 ? "H2" : "PostgreSQL";
    }
  }

  /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private final Kind kind;
  private final Store store;
  private final Path h2Directory;
  private final TestPostgres.Schema schema;

  private BenchmarkStore(Kind kind, Store store, Path h2Directory, TestPostgres.Schema schema) {
    this.kind = kind;
    this.store = store;
    this.h2Directory = h2Directory;
    this.schema = schema;
  }

  /**
   * Opens a fresh store.
   *
   * @param h2Directory where the H2 file goes (created; deleted on close); unused for PostgreSQL
   */
  public static BenchmarkStore open(Kind kind, Path h2Directory) {
    if (kind == Kind.H2) {
      try {
        Files.createDirectories(h2Directory);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new BenchmarkStore(
          kind, Store.open(StoreSettings.embedded(h2Directory)), h2Directory, null);
    }
    TestStores.PostgresStore postgres = TestStores.postgres();
    return new BenchmarkStore(kind, postgres.store(), null, postgres.schema());
  }

  public Kind kind() {
    return kind;
  }

  public Store store() {
    return store;
  }

  /**
   * CPU time (user + system) each server process of this database has spent so far, by pid; empty
   * for H2, which runs inside the JVM.
   */
  public Map<Integer, Long> serverCpuNanos() {
    Map<Integer, Long> cpu = new HashMap<>();
    if (kind != Kind.POSTGRES) {
      return cpu;
    }
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
   * alone); -1 for H2. The difference between two readings is what the database wrote to its log
   * between them.
   */
  public long walPosition() {
    if (kind != Kind.POSTGRES) {
      return -1;
    }
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
  public void close() throws SQLException, IOException {
    store.close();
    if (schema != null) {
      schema.close();
    }
    if (h2Directory != null && Files.exists(h2Directory)) {
      try (Stream<Path> files = Files.walk(h2Directory)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
  }
}
