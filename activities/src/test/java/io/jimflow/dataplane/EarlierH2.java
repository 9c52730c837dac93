package io.jimflow.dataplane;

import io.jimflow.store.StoreSettings;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The H2 release that earlier jimflow releases embedded, in a class loader of its own beside the
 * current H2: its jar is copied by the build (activities/pom.xml, {@code earlier-h2}).
 */
final class EarlierH2 implements AutoCloseable {

  private final URLClassLoader loader;
  private final String version;

  private EarlierH2(URLClassLoader loader, String version) {
    this.loader = loader;
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
    String version =
        (String) loader.loadClass("org.h2.engine.Constants").getField("FULL_VERSION").get(null);
    return new EarlierH2(loader, version);
  }

  String version() {
    return version;
  }

  /** Connections to the settings' database through the earlier H2 (its own data source). */
  DataSource dataSource(StoreSettings settings) throws ReflectiveOperationException {
    Class<?> type = loader.loadClass("org.h2.jdbcx.JdbcDataSource");
    Object dataSource = type.getConstructor().newInstance();
    type.getMethod("setURL", String.class).invoke(dataSource, settings.url());
    type.getMethod("setUser", String.class).invoke(dataSource, settings.user());
    type.getMethod("setPassword", String.class).invoke(dataSource, settings.password());
    return (DataSource) dataSource;
  }

  /** Closes the database, so that another H2 can open its file. */
  void shutdown(StoreSettings settings) throws SQLException, ReflectiveOperationException {
    try (Connection connection = dataSource(settings).getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("SHUTDOWN");
    }
  }

  @Override
  public void close() throws Exception {
    loader.close();
  }
}
