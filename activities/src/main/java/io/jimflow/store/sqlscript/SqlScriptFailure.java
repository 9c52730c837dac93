package io.jimflow.store.sqlscript;

import java.sql.SQLException;

/** Why a script's transaction was rolled back (or never began). */
public final class SqlScriptFailure extends RuntimeException {

  /** What went wrong. */
  public enum Kind {
    /** The connection could not be opened, or failed outside a statement (e.g. the commit). */
    CONNECTION_FAILED,
    /** A statement failed. */
    STATEMENT_FAILED,
    /** The deadline passed before or while a statement ran. */
    TIMED_OUT,
    /** The script was cancelled by its caller. */
    CANCELLED
  }

  private final Kind kind;
  private final int statement;
  private final String sqlState;

  private SqlScriptFailure(Kind kind, int statement, SQLException cause) {
    super(cause == null ? null : cause.getMessage(), cause);
    this.kind = kind;
    this.statement = statement;
    this.sqlState = cause == null ? null : cause.getSQLState();
  }

  static SqlScriptFailure connection(SQLException cause) {
    return new SqlScriptFailure(Kind.CONNECTION_FAILED, -1, cause);
  }

  static SqlScriptFailure statement(int index, SQLException cause) {
    return new SqlScriptFailure(Kind.STATEMENT_FAILED, index, cause);
  }

  static SqlScriptFailure timedOut(int index) {
    return new SqlScriptFailure(Kind.TIMED_OUT, index, null);
  }

  static SqlScriptFailure cancelled(int index) {
    return new SqlScriptFailure(Kind.CANCELLED, index, null);
  }

  public Kind kind() {
    return kind;
  }

  /** The index of the statement it happened at (from 0); -1 for a connection failure. */
  public int statement() {
    return statement;
  }

  /** The driver's SQLSTATE, when it gave one. */
  public String sqlState() {
    return sqlState;
  }

  /** A deadlock or serialization failure (40), a lost connection (08): a retry may succeed. */
  public boolean isTransient() {
    return sqlState != null && (sqlState.startsWith("40") || sqlState.startsWith("08"));
  }
}
