package io.jimflow.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The store contract on the tests' PostgreSQL, each test in a fresh schema. */
class StoreTest extends StoreContractTest {

  private Store store;

  @BeforeEach
  void open() {
    store = TestStores.postgres();
  }

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  @Override
  Store store() {
    return store;
  }
}
