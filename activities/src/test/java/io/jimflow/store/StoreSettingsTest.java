package io.jimflow.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StoreSettingsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:h2:file:/srv/jimflow/data/jimflow | not 'jdbc:h2:file:/srv/jimflow/data/jimflow': the"
            + " embedded H2 store is gone",
        "jdbc:mysql://db/jimflow | not 'jdbc:mysql://db/jimflow'",
        "postgresql://db/jimflow | not 'postgresql://db/jimflow'"
      })
  void aUrlThatIsNotPostgresStopsTheWorkerWithOneLineSayingWhy(String url, String says) {
    assertThatThrownBy(() -> new StoreSettings(url, "jimflow", "", 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "store url must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database)")
        .hasMessageContaining(says)
        .hasMessageNotContaining("\n");
  }

  @Test
  void theEmbeddedDefaultIsThePostgresOfJimflowDev() {
    StoreSettings embedded = StoreSettings.embedded();

    assertThat(embedded.url()).isEqualTo("jdbc:postgresql://127.0.0.1:15432/jimflow");
    assertThat(embedded.user()).isEqualTo("jimflow");
    assertThat(embedded.maxPoolSize()).isEqualTo(StoreSettings.DEFAULT_POOL_SIZE);
  }

  @Test
  void aBlankUrlIsRefused() {
    assertThatThrownBy(() -> new StoreSettings(" ", "", "", 0)).hasMessage("store url must be set");
  }
}
