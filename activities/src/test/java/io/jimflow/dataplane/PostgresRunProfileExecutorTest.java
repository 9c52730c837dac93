package io.jimflow.dataplane;

import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import org.junit.jupiter.api.AfterEach;

/**
 * The executor's runs on a real PostgreSQL; see {@link TestStores#postgres()} for how to enable.
 */
class PostgresRunProfileExecutorTest extends RunProfileExecutorImplTest {

  private TestStores.PostgresStore postgres;

  @Override
  Store newStore() {
    postgres = TestStores.postgres();
    return postgres.store();
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }
}
