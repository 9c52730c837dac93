package io.jimflow.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

class H2StoreTest extends StoreContractTest {

  private Store store;

  @BeforeEach
  void open() {
    store = TestStores.h2();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Override
  Store store() {
    return store;
  }
}
