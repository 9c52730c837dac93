package io.jimflow.dataplane;

import io.jimflow.connector.ImportRow;
import java.util.Map;
import java.util.TreeMap;

/**
 * What makes an object read from any source one that the store cannot hold as it is: a NUL
 * character (PostgreSQL refuses text holding one), an anchor or a value longer than the store
 * keeps. Such an object becomes an error row naming where it is and why, so that it is one error
 * item and the rest of its page is imported.
 */
final class ImportRowCheck {

  /** The longest anchor the store keeps (the cso table's anchor column). */
  static final int MAX_ANCHOR_LENGTH = 500;

  /** The longest attribute value imported (a join key's value is indexed up to this length). */
  static final int MAX_VALUE_LENGTH = 1_000;

  private ImportRowCheck() {}

  /** The row itself when it can be stored, else an error row in its place. */
  static ImportRow check(ImportRow row) {
    if (row.isError() || row.deleted()) {
      return row;
    }
    if (row.anchor().length() > MAX_ANCHOR_LENGTH) {
      return error(
          row,
          null,
          "AnchorTooLong",
          "the anchor has "
              + row.anchor().length()
              + " characters, more than the "
              + MAX_ANCHOR_LENGTH
              + " the store keeps");
    }
    if (row.anchor().indexOf('\0') >= 0) {
      return error(row, null, "NulCharacter", "the anchor holds a NUL character");
    }
    // Sorted, so that the attribute named is the same on every read of the row.
    for (Map.Entry<String, String> attribute : new TreeMap<>(row.attributes()).entrySet()) {
      String value = attribute.getValue();
      if (value == null) {
        continue;
      }
      if (value.indexOf('\0') >= 0) {
        return error(
            row, row.anchor(), "NulCharacter", attribute.getKey() + " holds a NUL character");
      }
      if (value.length() > MAX_VALUE_LENGTH) {
        return error(
            row,
            row.anchor(),
            "ValueTooLong",
            attribute.getKey()
                + " has "
                + value.length()
                + " characters, more than the "
                + MAX_VALUE_LENGTH
                + " a value may have");
      }
    }
    return row;
  }

  /**
   * @param anchor the object's anchor when it is sound (a full import then keeps the object as it
   *     was instead of taking it for absent), else null
   */
  private static ImportRow error(ImportRow row, String anchor, String type, String what) {
    String where = row.location() != null ? row.location() : row.reference();
    return new ImportRow(
        row.position(), where, anchor, null, type, where + ": " + what, row.location());
  }
}
