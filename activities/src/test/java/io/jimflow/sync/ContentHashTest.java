package io.jimflow.sync;

import static io.jimflow.sync.SyncEngineTest.attributes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ContentHashTest {

  @Test
  void contentHashesDependOnValuesNotOnOrder() {
    Map<String, String> a = new java.util.LinkedHashMap<>();
    a.put("x", "1");
    a.put("y", "2");
    Map<String, String> b = new java.util.LinkedHashMap<>();
    b.put("y", "2");
    b.put("x", "1");
    assertThat(ContentHash.of(a)).isEqualTo(ContentHash.of(b));
    assertThat(ContentHash.of(attributes("x", "12", "y", "")))
        .isNotEqualTo(ContentHash.of(attributes("x", "1", "y", "2")));
  }
}
