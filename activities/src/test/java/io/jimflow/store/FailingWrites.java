package io.jimflow.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A store over the same database whose connections lose one write when asked to: the database
 * connection dropping in the middle of a transaction, after part of its work reached the server.
 * Until {@link #failWrite} is called every statement runs as usual.
 */
public final class FailingWrites {

  private static final Set<String> WRITES =
      Set.of("execute", "executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch");

  private final Store store;
  private final AtomicInteger writesUntilFailure = new AtomicInteger(-1);
  private final AtomicBoolean failed = new AtomicBoolean();
  private volatile String fragment;

  /**
   * @param real the store whose database the connections reach (already migrated)
   */
  public FailingWrites(Store real) {
    this.store = new Store(proxy(DataSource.class, real.dataSource(), this::connection));
  }

  /** The store whose connections fail as asked. */
  public Store store() {
    return store;
  }

  /** Makes the {@code n}th write statement from now (1 = the next) throw an SQLException. */
  public void failWrite(int n) {
    failWriteOf(null, n);
  }

  /**
   * Makes the {@code n}th write from now of a statement prepared with SQL holding {@code fragment}
   * throw an SQLException, whichever connection or thread runs it.
   */
  public void failWriteOf(String fragment, int n) {
    this.fragment = fragment;
    writesUntilFailure.set(n);
  }

  /** Whether a write failed as asked. */
  public boolean failed() {
    return failed.get();
  }

  private Object connection(Object connection) {
    if (!(connection instanceof Connection c)) {
      return connection;
    }
    return Proxy.newProxyInstance(
        FailingWrites.class.getClassLoader(),
        new Class<?>[] {Connection.class},
        (proxy, method, arguments) -> {
          Object result = invoke(c, method, arguments);
          boolean prepared =
              method.getName().equals("prepareStatement")
                  && arguments != null
                  && arguments[0] instanceof String;
          return statement(result, prepared ? (String) arguments[0] : null);
        });
  }

  private Object statement(Object statement, String sql) {
    if (!(statement instanceof Statement s)) {
      return statement;
    }
    Class<? extends Statement> type =
        statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
    return Proxy.newProxyInstance(
        FailingWrites.class.getClassLoader(),
        new Class<?>[] {type},
        (proxy, method, arguments) -> {
          String wanted = fragment;
          if (WRITES.contains(method.getName())
              && writesUntilFailure.get() > 0
              && (wanted == null || (sql != null && sql.contains(wanted)))) {
            if (writesUntilFailure.decrementAndGet() == 0) {
              failed.set(true);
              throw new SQLException("connection lost (a test's failing write)", "08006");
            }
          }
          return invoke(s, method, arguments);
        });
  }

  /** A proxy of {@code target} whose every call's result passes through {@code wrap}. */
  private static <T> T proxy(Class<T> type, T target, Wrapper wrap) {
    InvocationHandler handler =
        (proxy, method, arguments) -> wrap.apply(invoke(target, method, arguments));
    return type.cast(
        Proxy.newProxyInstance(
            FailingWrites.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object invoke(Object target, Method method, Object[] arguments) throws Throwable {
    try {
      return method.invoke(target, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @FunctionalInterface
  private interface Wrapper {
    Object apply(Object result);
  }
}
