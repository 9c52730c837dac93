package io.jimflow.dataplane;

import io.jimflow.store.Store;
import io.jimflow.store.TestStores;
import io.jimflow.testing.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The executor's runs on a real PostgreSQL; see {@link TestStores#postgres()} for how to enable.
 */
@ExtendWith(TestPostgres.Required.class)
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
