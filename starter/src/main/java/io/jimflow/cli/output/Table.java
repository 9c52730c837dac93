package io.jimflow.cli.output;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain text table with columns as wide as their widest cell. */
public final class Table {

  private final List<String[]> rows = new ArrayList<>();

  public Table(String... headers) {
    rows.add(headers);
  }

  public Table row(Object... cells) {
    String[] text = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      text[i] = cells[i] == null ? "-" : cells[i].toString();
    }
    rows.add(text);
    return this;
  }

  public void print(PrintWriter out) {
    int columns = rows.get(0).length;
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
