package io.jimflow.dataplane;

import io.jimflow.schedule.ChangeSample;
import io.jimflow.schedule.ChangeSample.AttributeChange;
import io.jimflow.store.PendingExports.PendingSample;
import io.jimflow.sync.ExportChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pending export as a {@link ChangeSample}: the attributes it changes, with the value the target
 * holds now and the one it would hold. Only attributes the export itself carries are shown (what
 * the outbound mapping produces, never anything else the target holds), a few per object, each
 * value cut short and on one line, so that a held step's message and a preview stay small whatever
 * the data.
 */
final class ChangeSamples {

  /** Attributes shown per object; the rest are counted. */
  static final int MAX_ATTRIBUTES = 8;

  /** Characters shown of a value. */
  static final int MAX_VALUE = 80;

  private ChangeSamples() {}

  static ChangeSample of(PendingSample export) {
    List<AttributeChange> changes = new ArrayList<>();
    int more = 0;
    if (export.change() != ExportChange.Delete) {
      // Sorted, so that the same export is always shown the same way.
      for (Map.Entry<String, String> asked : new TreeMap<>(export.asked()).entrySet()) {
        String before =
            export.change() == ExportChange.Create ? null : export.now().get(asked.getKey());
        String after = asked.getValue();
        if (blankAsNull(before) == null ? blankAsNull(after) == null : before.equals(after)) {
          continue;
        }
        if (changes.size() == MAX_ATTRIBUTES) {
          more++;
          continue;
        }
        changes.add(new AttributeChange(asked.getKey(), shown(before), shown(after)));
      }
    }
    return new ChangeSample(export.change().name(), shown(export.anchor()), changes, more);
  }

  private static String blankAsNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  /** A value on one line and at most {@link #MAX_VALUE} characters long; null stays null. */
  static String shown(String value) {
    if (value == null) {
      return null;
    }
    StringBuilder text = new StringBuilder(Math.min(value.length(), MAX_VALUE + 1));
    int count = 0;
    for (int i = 0; i < value.length(); ) {
      int c = value.codePointAt(i);
      i += Character.charCount(c);
      if (count == MAX_VALUE) {
        text.append('…');
        break;
      }
      text.appendCodePoint(Character.isISOControl(c) ? ' ' : c);
      count++;
    }
    return text.toString();
  }
}
