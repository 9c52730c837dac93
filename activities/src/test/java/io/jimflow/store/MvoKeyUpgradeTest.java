package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.jimflow.sync.MultiValue;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A store whose join keys were written before multi-values were keyed sorted: after the upgrade
 * each key holds its values as the worker writes them now, so a join finds the identity.
 */
class MvoKeyUpgradeTest {

  /** The last migration before keys were sorted. */
  private static final String BEFORE = "35.31";

  @Test
  void multiValuedKeysOfAnEarlierStoreAreSortedAsJoinsLookThemUp() throws Exception {
    List<String> written = List.of("b\na", "c\na\nb\na", "mail@example.org", "z\u00e9\nZ\n\nA");
    try (Store store = TestStores.atVersion(BEFORE)) {
      store.inTransaction(
          c -> {
            for (int i = 0; i < written.size(); i++) {
              try (PreparedStatement mvo =
                  c.prepareStatement(
                      "insert into mvo (id, object_type, attributes, created_at, updated_at)"
                          + " values (?, 'person', '{}', now(), now())")) {
                mvo.setString(1, "mvo-" + i);
                mvo.executeUpdate();
              }
              try (PreparedStatement key =
                  c.prepareStatement(
                      "insert into mvo_key (object_type, attribute, attr_value, mvo_id)"
                          + " values ('person', 'mail', ?, ?)")) {
                key.setString(1, written.get(i));
                key.setString(2, "mvo-" + i);
                key.executeUpdate();
              }
            }
            return null;
          });

      store.migrate();

      List<String> keys =
          store.inTransaction(
              c -> {
                List<String> values = new ArrayList<>();
                try (PreparedStatement select =
                        c.prepareStatement("select attr_value from mvo_key order by mvo_id");
                    ResultSet rows = select.executeQuery()) {
                  while (rows.next()) {
                    values.add(rows.getString(1));
                  }
                }
                return values;
              });
      assertThat(keys)
          .containsExactly(written.stream().map(MultiValue::normalised).toArray(String[]::new))
          .containsExactly("a\nb", "a\nb\nc", "mail@example.org", "A\nZ\nz\u00e9");
    }
  }
}
