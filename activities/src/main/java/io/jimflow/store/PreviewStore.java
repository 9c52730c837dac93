package io.jimflow.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.sql.DataSource;

/**
 * A store whose every transaction happens inside one outer transaction that is rolled back when the
 * preview closes: runs against it read and write as they would, see their own writes, and leave
 * nothing behind. A run's transaction is a savepoint of the outer one: its commit keeps its work
 * for the rest of the preview, its rollback undoes only it.
 *
 * <p>The outer transaction holds its locks until the preview closes, so runs of the same systems
 * wait for it; keep previews short.
 */
public final class PreviewStore implements AutoCloseable {

  private final Connection connection;
  private final Deque<Savepoint> savepoints = new ArrayDeque<>();
  private final Store store;

  public PreviewStore(Store real) {
    try {
      this.connection = real.dataSource().getConnection();
      connection.setAutoCommit(false);
    } catch (SQLException e) {
      throw new StoreException("store unreachable: " + e.getMessage(), e);
    }
    Connection shared =
        (Connection)
            Proxy.newProxyInstance(
                PreviewStore.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, arguments) ->
                    switch (method.getName()) {
                      case "close" -> null;
                      case "getAutoCommit" -> true;
                      case "setAutoCommit" -> {
                        if (Boolean.FALSE.equals(arguments[0])) {
                          savepoints.push(connection.setSavepoint());
                        }
                        yield null;
                      }
                      case "commit" -> {
                        connection.releaseSavepoint(savepoints.pop());
                        yield null;
                      }
                      case "rollback" -> {
                        if (arguments == null || arguments.length == 0) {
                          Savepoint savepoint = savepoints.pop();
                          connection.rollback(savepoint);
                          yield null;
                        }
                        yield invoke(method, arguments);
                      }
                      default -> invoke(method, arguments);
                    });
    DataSource source =
        (DataSource)
            Proxy.newProxyInstance(
                PreviewStore.class.getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, arguments) -> {
                  if (method.getName().equals("getConnection")) {
                    return shared;
                  }
                  return method.invoke(real.dataSource(), arguments);
                });
    this.store = new Store(source);
  }

  private Object invoke(java.lang.reflect.Method method, Object[] arguments) throws Throwable {
    try {
      return method.invoke(connection, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** The store the preview's runs use. */
  public Store store() {
    return store;
  }

  /** Undoes everything the preview wrote. */
  @Override
  public void close() {
    try {
      connection.rollback();
      connection.setAutoCommit(true);
      connection.close();
    } catch (SQLException e) {
      throw new StoreException("closing a preview failed: " + e.getMessage(), e);
    }
  }
}
