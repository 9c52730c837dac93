package io.jimflow.dataplane;

import io.jimflow.schedule.ChangeSample;
import io.jimflow.schedule.ChangeSample.AttributeChange;
import io.jimflow.store.PendingExports.PendingSample;
import io.jimflow.sync.ExportChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An object a run would change as a {@link ChangeSample}: the attributes it changes, with the value
 * held now and the one it would hold. Only attributes the mapping produces are shown (for an
 * export, those the export itself carries; for an import, those the sync rules read or write),
 * never anything else a system holds; a few per object, each value cut short and on one line, so
 * that a held step's message and a preview stay small whatever the data.
 */
final class ChangeSamples {

  /** Attributes shown per object; the rest are counted. */
  static final int MAX_ATTRIBUTES = 8;

  /** Characters shown of a value. */
  static final int MAX_VALUE = 80;

  private ChangeSamples() {}

  /** A pending export: the values it asks for against those its target holds now. */
  static ChangeSample of(PendingSample export) {
    return of(
        export.change().name(),
        export.anchor(),
        export.change() == ExportChange.Create ? null : export.now(),
        export.change() == ExportChange.Delete ? null : export.asked(),
        null);
  }

  /**
   * @param before the values now, null when the object is new
   * @param after the values it would have (only those that change are shown), null when it goes
   * @param shown the attributes that may be shown, null for all of {@code after}
   */
  static ChangeSample of(
      String change,
      String anchor,
      Map<String, String> before,
      Map<String, String> after,
      Set<String> shown) {
    List<AttributeChange> changes = new ArrayList<>();
    int more = 0;
    if (after != null) {
      // Sorted, so that the same change is always shown the same way.
      for (Map.Entry<String, String> value : new TreeMap<>(after).entrySet()) {
        String name = value.getKey();
        String was = before == null ? null : before.get(name);
        String is = value.getValue();
        if ((shown != null && !shown.contains(name))
            || (blankAsNull(was) == null ? blankAsNull(is) == null : was.equals(is))) {
          continue;
        }
        if (changes.size() == MAX_ATTRIBUTES) {
          more++;
          continue;
        }
        changes.add(new AttributeChange(name, shown(was), shown(is)));
      }
    }
    return new ChangeSample(change, shown(anchor), changes, more);
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
