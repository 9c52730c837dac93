package io.jimflow.schedule.steps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jimflow.schedule.steps.SqlStatements.Statement;
import org.junit.jupiter.api.Test;

class SqlStatementsTest {

  @Test
  void statementsEndAtSemicolonsAndKnowTheLineTheyStartOn() {
    String script =
        """
        -- tidy up
        delete from a;

        update b
           set c = 1;   insert into d values (1)
        """;

    assertThat(SqlStatements.split(script))
        .containsExactly(
            new Statement(2, "delete from a"),
            new Statement(4, "update b\n   set c = 1"),
            new Statement(5, "insert into d values (1)"));
  }

  @Test
  void semicolonsInLiteralsIdentifiersAndCommentsDoNotEndAStatement() {
    String script =
        """
        insert into "odd;name" values ('a;b', 'it''s; fine', E'back\\'; slash');
        /* a comment; /* nested; */ still comment; */ select 1;
        select 2 -- trailing; comment
        ;
        """;

    assertThat(SqlStatements.split(script)).extracting(Statement::line).containsExactly(1, 2, 3);
    assertThat(SqlStatements.split(script).get(0).sql()).endsWith("slash')");
    assertThat(SqlStatements.split(script).get(1).sql()).isEqualTo("select 1");
  }

  @Test
  void dollarQuotedBodiesKeepTheirSemicolonsButParametersAreNoQuotes() {
    String script =
        """
        create function f() returns int as $$
          begin return 1; end;
        $$ language plpgsql;
        create function g() returns int as $body$ select 1; $body$ language sql;
        prepare p as select $1; select 3;
        """;

    assertThat(SqlStatements.split(script)).extracting(Statement::line).containsExactly(1, 4, 5, 5);
  }

  @Test
  void aScriptOfCommentsAndBlanksHasNoStatement() {
    assertThat(SqlStatements.split("-- nothing\n\n/* here */\n;;\n")).isEmpty();
  }

  @Test
  void anUnclosedLiteralIsReportedWithTheLineItStartsOn() {
    assertThatThrownBy(() -> SqlStatements.split("select 1;\n\nselect 'oops;\nfrom t;\n"))
        .isInstanceOfSatisfying(
            SqlStatements.UnterminatedException.class, e -> assertThat(e.line()).isEqualTo(3))
        .hasMessage("a string literal starting on line 3 is never closed");
    assertThatThrownBy(() -> SqlStatements.split("select 1; /* open\n"))
        .hasMessage("a comment /* starting on line 1 is never closed");
    assertThatThrownBy(() -> SqlStatements.split("do $x$ begin\n null;\n"))
        .hasMessage("a dollar-quoted string $x$ starting on line 1 is never closed");
  }
}
