package io.jimflow.dataplane;

import io.jimflow.store.StoreSettings;
import java.io.PrintWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The H2 release that earlier jimflow releases embedded, in a class loader of its own beside the
 * current H2: its jar is copied by the build (activities/pom.xml, {@code earlier-h2}).
 */
final class EarlierH2 implements AutoCloseable {

  private final URLClassLoader loader;
  private final Driver driver;
  private final String version;

  private EarlierH2(URLClassLoader loader, Driver driver, String version) {
    this.loader = loader;
    this.driver = driver;
    this.version = version;
  }

  static EarlierH2 load() throws Exception {
    String jar = System.getProperty("jimflow.test.earlierH2");
    if (jar == null || !Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException(
          "No jar of the earlier H2 at "
              + jar
              + ": run the tests through Maven, which copies it (activities/pom.xml, earlier-h2)");
    }
    URLClassLoader loader =
        new URLClassLoader(
            new URL[] {Path.of(jar).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    Driver driver =
        (Driver) Class.forName("org.h2.Driver", true, loader).getConstructor().newInstance();
    String version =
        (String)
            Class.forName("org.h2.engine.Constants", true, loader)
                .getField("FULL_VERSION")
                .get(null);
    return new EarlierH2(loader, driver, version);
  }

  String version() {
    return version;
  }

  /** Connections to the settings' database through the earlier H2. */
  DataSource dataSource(StoreSettings settings) {
    return new DriverDataSource(driver, settings);
  }

  /** Closes the database, so that another H2 can open its file. */
  void shutdown(StoreSettings settings) throws SQLException {
    try (Connection connection = dataSource(settings).getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("SHUTDOWN");
    }
  }

  @Override
  public void close() throws Exception {
    loader.close();
  }

  private record DriverDataSource(Driver driver, StoreSettings settings) implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      return getConnection(settings.user(), settings.password());
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      Properties properties = new Properties();
      properties.setProperty("user", user);
      properties.setProperty("password", password);
      return driver.connect(settings.url(), properties);
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
}
