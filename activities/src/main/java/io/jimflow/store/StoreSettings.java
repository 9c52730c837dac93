package io.jimflow.store;

import java.nio.file.Path;

/**
 * Where the store lives and how many connections it may hold.
 *
 * @param url a JDBC URL: {@code jdbc:h2:file:...} (embedded) or {@code jdbc:postgresql://...}
 * @param maxPoolSize the most connections the pool opens; one per concurrently running step
 *     suffices
 */
public record StoreSettings(String url, String user, String password, int maxPoolSize) {

  public static final int DEFAULT_POOL_SIZE = 8;

  public StoreSettings {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("store url must be set");
    }
    user = user == null ? "" : user;
    password = password == null ? "" : password;
    maxPoolSize = maxPoolSize <= 0 ? DEFAULT_POOL_SIZE : maxPoolSize;
  }

  /**
   * The embedded default: an H2 file {@code jimflow} in the given directory (e.g. {@code data/}).
   */
  public static StoreSettings embedded(Path dataDirectory) {
    return new StoreSettings(
        "jdbc:h2:file:"
            + dataDirectory.toAbsolutePath().resolve("jimflow")
            // A 128 MiB page cache (default 64): commits revisit every changed row's pages.
            // FILE_LOCK=FS: the OS releases the lock when a worker dies, so the next one can open
            // it. AUTO_COMPACT_FILL_RATE=0: no background rewriting of partly filled chunks, which
            // took 9 % of the CPU of a synchronisation (docs/benchmarks.md, "Embedded H2").
            + ";DB_CLOSE_ON_EXIT=FALSE;CACHE_SIZE=131072;FILE_LOCK=FS;AUTO_COMPACT_FILL_RATE=0",
        "sa",
        "",
        DEFAULT_POOL_SIZE);
  }
}
