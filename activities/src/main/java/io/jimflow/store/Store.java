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
    return migrated(pool(settings));
  }

  /** A store on the pool, its schema brought up to date; the pool is closed if that fails. */
  static Store migrated(HikariDataSource pool) {
    Store store = new Store(pool);
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
    return new HikariDataSource(poolConfig(settings));
  }

  /** The pool settings for the store settings. */
  static HikariConfig poolConfig(StoreSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.url());
    config.setUsername(settings.user());
    config.setPassword(settings.password());
    config.setMaximumPoolSize(settings.maxPoolSize());
    config.setPoolName("jimflow-store");
    config.setAutoCommit(true);
    // Sends a batch of inserts as multi-row INSERTs instead of one statement per row.
    config.addDataSourceProperty("reWriteBatchedInserts", "true");
    return config;
  }

  /** Applies pending Flyway migrations (classpath:db/migration). */
  public void migrate() {
    try (Connection connection = dataSource.getConnection()) {
      connection.isValid(5);
    } catch (SQLException e) {
      throw new StoreException("store unreachable: " + e.getMessage(), e);
    }
    Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
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
