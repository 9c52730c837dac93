package io.jimflow.store;

import io.jimflow.testing.TestPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract on a real PostgreSQL; see {@link TestStores#postgres()} for how to enable. */
@ExtendWith(TestPostgres.Required.class)
class PostgresStoreTest extends StoreContractTest {

  private TestStores.PostgresStore postgres;

  @BeforeEach
  void open() {
    postgres = TestStores.postgres();
  }

  @AfterEach
  void close() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Override
  Store store() {
    return postgres.store();
  }
}
