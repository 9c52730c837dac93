package io.jimflow.exampledata;

import java.io.IOException;
import java.io.Writer;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Generates example HR people as CSV (the columns of the HR System in {@code
 * config/connected-systems.yaml}), streaming row by row: memory use does not grow with the number
 * of people. The same seed and count always give the same file.
 */
public final class ExamplePeople {

  public static final String HEADER =
      "employeeId,firstName,lastName,displayName,email,department,jobTitle,location,employeeType,status";

  private static final String[] FIRST_NAMES = {
    "Ada", "Alan", "Amara", "Ben", "Chen", "Chloe", "Dara", "David", "Elena", "Emeka", "Fatima",
    "Felix", "Grace", "Hana", "Ian", "Ingrid", "Jamal", "Jia", "Kai", "Katarzyna", "Leila", "Liam",
    "Maya", "Mateo", "Nadia", "Noah", "Olga", "Omar", "Priya", "Quinn", "Rosa", "Ravi", "Sofia",
    "Sven", "Tariq", "Tess", "Uma", "Victor", "Wei", "Yara", "Zoë", "Zane"
  };
  private static final String[] LAST_NAMES = {
    "Adeyemi",
    "Andersson",
    "Brown",
    "Chen",
    "Costa",
    "Dubois",
    "Evans",
    "Fischer",
    "García",
    "Hansen",
    "Ito",
    "Jones",
    "Kowalski",
    "Kumar",
    "Lee",
    "Lopez",
    "Martin",
    "Müller",
    "Nakamura",
    "Nguyen",
    "O'Brien",
    "Okafor",
    "Patel",
    "Popescu",
    "Rossi",
    "Santos",
    "Schmidt",
    "Singh",
    "Smith",
    "Svensson",
    "Taylor",
    "Tanaka",
    "Walker",
    "Wang",
    "Williams",
    "Yilmaz",
    "Zhang"
  };
  private static final String[] DEPARTMENTS = {
    "Engineering",
    "Finance",
    "Human Resources",
    "Legal",
    "Marketing",
    "Operations",
    "Sales",
    "Support",
    "Research & Development"
  };
  private static final String[] TITLES = {
    "Analyst",
    "Associate",
    "Consultant",
    "Director",
    "Engineer",
    "Manager",
    "Senior Engineer",
    "Specialist",
    "Team Lead",
    "Coordinator"
  };
  private static final String[] LOCATIONS = {
    "London", "Manchester", "Edinburgh", "Dublin", "Amsterdam", "Berlin", "Lisbon", "Remote"
  };

  private final long seed;

  public ExamplePeople(long seed) {
    this.seed = seed;
  }

  /**
   * Writes the header and {@code people} rows to {@code out}.
   *
   * @param written called after each row with the number of rows written so far
   */
  public void write(long people, Writer out, LongConsumer written) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    out.write(HEADER);
    out.write('\n');
    StringBuilder row = new StringBuilder(256);
    for (long n = 1; n <= people; n++) {
      String first = pick(random, FIRST_NAMES);
      String last = pick(random, LAST_NAMES);
      String id = String.format("E%07d", n);
      row.setLength(0);
      field(row, id).append(',');
      field(row, first).append(',');
      field(row, last).append(',');
      field(row, first + " " + last).append(',');
      field(row, emailPart(first) + "." + emailPart(last) + n + "@example.org").append(',');
      field(row, pick(random, DEPARTMENTS)).append(',');
      field(row, pick(random, TITLES)).append(',');
      field(row, pick(random, LOCATIONS)).append(',');
      field(row, random.nextInt(10) < 8 ? "Employee" : "Contractor").append(',');
      field(row, random.nextInt(50) == 0 ? "Terminated" : "Active").append('\n');
      out.append(row);
      written.accept(n);
    }
  }

  private static String pick(SplittableRandom random, String[] values) {
    return values[random.nextInt(values.length)];
  }

  private static String emailPart(String name) {
    return java.text.Normalizer.normalize(name, java.text.Normalizer.Form.NFD)
        .replaceAll("[^A-Za-z]", "")
        .toLowerCase(java.util.Locale.ROOT);
  }

  /** Appends a value, quoted as RFC 4180 has it when it holds a comma, quote or line break. */
  private static StringBuilder field(StringBuilder row, String value) {
    if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0) {
      return row.append(value);
    }
    return row.append('"').append(value.replace("\"", "\"\"")).append('"');
  }
}
