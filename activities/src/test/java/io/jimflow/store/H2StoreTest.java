package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

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

  @Test
  void lookupsByAPageOfAnchorsOrKeyValuesSeekTheirIndex() {
    // H2 seeks an index for "column = ANY(?)" only on its leading column; the anchor and the key
    // value lead theirs, so a page of lookups reads only the rows asked for.
    assertThat(plan("select * from cso where anchor = ANY(?)"))
        .contains("CSO_ANCHOR_UNIQUE_INDEX_1: ANCHOR IN(");
    assertThat(plan("select * from cso where mvo_id = ANY(?)")).containsPattern(": MVO_ID IN\\(");
    assertThat(plan("select * from mvo_key where attr_value = ANY(?)"))
        .containsPattern("PRIMARY_KEY_\\w+: ATTR_VALUE IN\\(");
    assertThat(plan("select * from mvo where id = ANY(?)"))
        .containsPattern("PRIMARY_KEY_\\w+: ID IN\\(");
  }

  @Test
  void updatesAndDeletesOfAPageOfIdsSeekThePrimaryKey() {
    assertThat(planByIds("update cso set sync_pending = false where id = ANY(?)"))
        .containsPattern("PRIMARY_KEY_\\w+: ID IN\\(");
    assertThat(planByIds("delete from cso where id = ANY(?)"))
        .containsPattern("PRIMARY_KEY_\\w+: ID IN\\(");
    assertThat(planByIds("update pending_export set status = 'Exported' where id = ANY(?)"))
        .containsPattern("PRIMARY_KEY_\\w+: ID IN\\(");
    assertThat(
            planByIds(
                Dialect.H2.updateByIdFromArrays(
                    "cso", "cast(? as bigint array)", "id", "sync_pending = false")))
        .containsPattern("PRIMARY_KEY_\\w+: ID = V.ID");
  }

  private String plan(String query) {
    return plan(query, explain -> Sql.setStrings(explain, 1, List.of("a", "b")));
  }

  private String planByIds(String statement) {
    return plan(statement, explain -> Sql.setLongs(explain, 1, List.of(1L, 2L)));
  }

  private String plan(String query, Sql.Binder binder) {
    return store.inTransaction(
        c -> {
          try (PreparedStatement explain = c.prepareStatement("explain " + query)) {
            binder.bind(explain);
            try (ResultSet rows = explain.executeQuery()) {
              rows.next();
              return rows.getString(1);
            }
          }
        });
  }

  @Override
  Store store() {
    return store;
  }
}
