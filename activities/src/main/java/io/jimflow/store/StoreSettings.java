package io.jimflow.store;

/**
 * Where the store lives and how many connections it may hold.
 *
 * @param url a PostgreSQL JDBC URL, {@code jdbc:postgresql://host:port/database}
 * @param maxPoolSize the most connections the pool opens; one per concurrently running step
 *     suffices
 */
public record StoreSettings(String url, String user, String password, int maxPoolSize) {

  public static final int DEFAULT_POOL_SIZE = 8;

  /**
   * The port of the embedded PostgreSQL that {@code ./jimflow dev} runs (PostgreSQL's own 5432 plus
   * 10000, as the dev directory's 10389 is LDAP's 389 plus 10000).
   */
  public static final int EMBEDDED_PORT = 15432;

  /** The database and account of the embedded PostgreSQL. */
  public static final String EMBEDDED_DATABASE = "jimflow";

  public static final String EMBEDDED_USER = "jimflow";

  public StoreSettings {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("store url must be set");
    }
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(
          "store url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), not '"
              + url
              + "'"
              + (url.startsWith("jdbc:h2:")
                  ? ": the embedded H2 store is gone; leave the url unset for the embedded"
                      + " PostgreSQL of ./jimflow dev (docs/store.md)"
                  : ""));
    }
    user = user == null ? "" : user;
    password = password == null ? "" : password;
    maxPoolSize = maxPoolSize <= 0 ? DEFAULT_POOL_SIZE : maxPoolSize;
  }

  /**
   * The embedded default: the PostgreSQL that {@code ./jimflow dev} runs on this machine, with its
   * data under {@code data/postgres} (a worker connects to it like to any PostgreSQL).
   */
  public static StoreSettings embedded() {
    return embedded(EMBEDDED_PORT);
  }

  /** The embedded PostgreSQL's database on another port (tests run their own). */
  public static StoreSettings embedded(int port) {
    return new StoreSettings(
        "jdbc:postgresql://127.0.0.1:" + port + "/" + EMBEDDED_DATABASE,
        EMBEDDED_USER,
        "",
        DEFAULT_POOL_SIZE);
  }
}
