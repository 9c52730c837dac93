package io.jimflow.store;

import com.zaxxer.hikari.HikariDataSource;
import io.jimflow.testing.TestPostgres;
import java.sql.SQLException;
import java.util.UUID;
import org.flywaydb.core.Flyway;

/**
 * Stores for tests: a fresh in-memory H2 database, or a fresh schema in the test PostgreSQL ({@link
 * TestPostgres}).
 */
public final class TestStores {

  private TestStores() {}

  public static Store h2() {
    return Store.open(
        new StoreSettings("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "", 4));
  }

  /** A store in a new schema of the test PostgreSQL; close it to drop the schema. */
  public static PostgresStore postgres() {
    TestPostgres.Schema schema = TestPostgres.newSchema();
    Store store =
        Store.open(new StoreSettings(schema.schemaUrl(), schema.user(), schema.password(), 4));
    return new PostgresStore(store, schema);
  }

  /**
   * A store whose schema stops at an earlier migration, as an earlier release left it: its data
   * source, not migrated further. {@link Store#open} then brings it up to date, as a new release
   * does.
   */
  public static Store atVersion(StoreSettings settings, String version) {
    HikariDataSource pool = Store.pool(settings);
    Flyway.configure()
        .dataSource(pool)
        .locations("classpath:db/migration")
        .target(version)
        .load()
        .migrate();
    return new Store(pool);
  }

  /** A store in its own PostgreSQL schema. */
  public record PostgresStore(Store store, TestPostgres.Schema schema) implements AutoCloseable {
    @Override
    public void close() throws SQLException {
      store.close();
      schema.close();
    }
  }
}
