package io.jimflow.worker.store;

import com.zaxxer.hikari.HikariDataSource;
import io.jimflow.store.Store;
import io.jimflow.store.StoreException;
import io.jimflow.store.StoreSettings;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A pooled data source opened, and its schema migrated, on first use: a worker that never runs a
 * run profile or maintenance never touches the store (e.g. e2e workers sharing one checkout).
 */
public final class LazyStoreDataSource implements DataSource, AutoCloseable {

  private final StoreSettings settings;
  private volatile HikariDataSource pool;

  public LazyStoreDataSource(StoreSettings settings) {
    this.settings = settings;
  }

  private HikariDataSource pool() {
    HikariDataSource open = pool;
    if (open == null) {
      synchronized (this) {
        open = pool;
        if (open == null) {
          open = Store.pool(settings);
          try {
            new Store(open).migrate();
          } catch (StoreException e) {
            open.close();
            if (settings.url().equals(StoreSettings.embedded().url())) {
              throw new StoreException(
                  e.getMessage()
                      + " (the default store is the embedded PostgreSQL that ./jimflow dev runs:"
                      + " start ./jimflow dev, or set JIMFLOW_STORE_URL)",
                  e);
            }
            throw e;
          } catch (RuntimeException e) {
            open.close();
            throw e;
          }
          pool = open;
        }
      }
    }
    return open;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return pool().getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return pool().getConnection(username, password);
  }

  @Override
  public synchronized void close() {
    if (pool != null) {
      pool.close();
    }
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}
