package io.jimflow.store;

import com.zaxxer.hikari.HikariDataSource;
import io.jimflow.testing.TestPostgres;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;

/** Stores for tests: each a fresh schema of the tests' PostgreSQL ({@link TestPostgres}). */
public final class TestStores {

  private TestStores() {}

  /** A migrated store in a new schema of the tests' PostgreSQL; closing it drops the schema. */
  public static Store postgres() {
    return Store.migrated(new SchemaPool(TestPostgres.newSchema()));
  }

  /**
   * A store in a new schema whose schema stops at an earlier migration, as an earlier release left
   * it, not migrated further; closing it drops the schema. {@link Store#migrate()} then brings it
   * up to date, as a new release does.
   */
  public static Store atVersion(String version) {
    SchemaPool pool = new SchemaPool(TestPostgres.newSchema());
    try {
      Flyway.configure()
          .dataSource(pool)
          .locations("classpath:db/migration")
          .target(version)
          .load()
          .migrate();
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    return new Store(pool);
  }

  /** The settings of a worker on a schema (e.g. a process of a test). */
  public static StoreSettings settings(TestPostgres.Schema schema) {
    return new StoreSettings(schema.schemaUrl(), schema.user(), schema.password(), 4);
  }

  /** A pool on one schema that drops the schema when it closes. */
  private static final class SchemaPool extends HikariDataSource {

    private final TestPostgres.Schema schema;

    SchemaPool(TestPostgres.Schema schema) {
      super(Store.poolConfig(settings(schema)));
      this.schema = schema;
    }

    @Override
    public void close() {
      super.close();
      try {
        schema.close();
      } catch (SQLException e) {
        throw new StoreException("dropping the test schema " + schema.schema() + " failed", e);
      }
    }
  }
}
