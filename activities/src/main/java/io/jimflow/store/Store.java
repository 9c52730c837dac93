package io.jimflow.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The identity data plane's relational store: a pooled {@link DataSource} whose schema Flyway keeps
 * current, and transactions around units of work.
 *
 * <p>Repositories in this package take the {@link Connection} of the caller's transaction, so one
 * page of work and its checkpoint commit together or not at all.
 */
public final class Store implements AutoCloseable {

  private final DataSource dataSource;

  /** Uses a data source managed elsewhere (e.g. by Spring); call {@link #migrate()} once. */
  public Store(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Opens a pool for the settings and brings the schema up to date. */
  public static Store open(StoreSettings settings) {
    Store store = new Store(pool(settings));
    try {
      store.migrate();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  /** A connection pool for the settings (schema not migrated). */
  public static HikariDataSource pool(StoreSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.url());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.maxPoolSize());
    config.setPoolName("jimflow-store");
    config.setAutoCommit(true);
    if (settings.url().startsWith("jdbc:postgresql:")) {
      // Sends a batch of inserts as multi-row INSERTs instead of one statement per row.
      config.addDataSourceProperty("reWriteBatchedInserts", "true");
    }
    return new HikariDataSource(config);
  }

  /**
   * Applies pending Flyway migrations: those of both databases (classpath:db/migration) and, on H2,
   * those of H2 alone (classpath:db/h2).
   */
  public void migrate() {
    boolean h2;
    try (Connection connection = dataSource.getConnection()) {
      h2 = Dialect.of(connection) == Dialect.H2;
    } catch (SQLException e) {
      throw new StoreException("store unreachable: " + e.getMessage(), e);
    }
    Flyway.configure()
        .dataSource(dataSource)
        .locations(
            h2
                ? new String[] {"classpath:db/migration", "classpath:db/h2"}
                : new String[] {"classpath:db/migration"})
        .load()
        .migrate();
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** Runs the work in one transaction: committed when it returns, rolled back when it throws. */
  public <T> T inTransaction(SqlWork<T> work) {
    try (Connection connection = dataSource.getConnection()) {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try {
        T result = work.run(connection);
        connection.commit();
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        rollbackQuietly(connection, e);
        throw e;
      } finally {
        connection.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw new StoreException("store transaction failed: " + e.getMessage(), e);
    }
  }

  /**
   * Runs the work in one {@link Transaction}: committed when it returns, rolled back when it
   * throws. For callers outside the store, which pass the transaction on to the repositories.
   */
  public <T> T transact(Transaction.Work<T> work) {
    return inTransaction(
        connection -> {
          try {
            return work.run(new Transaction(connection));
          } catch (Transaction.Failure e) {
            throw e.sqlCause();
          }
        });
  }

  private static void rollbackQuietly(Connection connection, Throwable cause) {
    try {
      connection.rollback();
    } catch (SQLException rollbackFailure) {
      cause.addSuppressed(rollbackFailure);
    }
  }

  @Override
  public void close() {
    if (dataSource instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        throw new StoreException("closing the store failed", e);
      }
    }
  }
}
