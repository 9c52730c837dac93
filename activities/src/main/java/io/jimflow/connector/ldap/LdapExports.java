package io.jimflow.connector.ldap;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.UpdatableLDAPRequest;
import com.unboundid.ldap.sdk.controls.PostReadResponseControl;
import io.jimflow.sync.ExportChange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Applies exports to a directory: creates (object classes, DN from the template), updates (a rename
 * or move when the DN template's inputs change, then replace, add and delete of values), deletes.
 * {@link ExportPlanner} turns each export into its operations; this class sends them and settles
 * the answers.
 *
 * <p>A batch of exports is applied pipelined: the entries its updates and deletes need are read by
 * a few searches, then its operations are sent without waiting for each answer (at most {@link
 * #WINDOW} unanswered), a rename's modify after the rename's answer. Two exports of a batch that
 * touch the same DN are never in flight together: the second waits for the first's answers ({@link
 * ExportPlan#conflictFreeEnd}).
 *
 * <p>Each operation is computed from the entry as it is now, so sending an export again after a
 * lost connection is harmless: an add that already happened is found and brought to the export's
 * values, a modify adds only missing values, a delete of a gone entry succeeds. An add that finds
 * an entry no earlier attempt may have created touches nothing: it is that export's error. Every
 * answer becomes the export's outcome in one place, {@link #settle}.
 */
public final class LdapExports {

  /** How many operations a batch has in flight at most. */
  public static final int WINDOW = 256;

  private final LdapDirectory directory;
  private final String anchor;
  private final ExportPlanner planner;

  public LdapExports(LdapDirectory directory, String anchor, Set<String> multiValued) {
    this.directory = directory;
    this.anchor = anchor;
    this.planner = new ExportPlanner(directory, anchor, multiValued);
  }

  /**
   * One export's outcome.
   *
   * @param anchor the object's anchor after the export (a created entry's entryUUID)
   * @param errorType null when it succeeded
   */
  public record Result(String anchor, String dn, String errorType, String errorMessage) {
    public boolean succeeded() {
      return errorType == null;
    }

    static Result ok(String anchor, String dn) {
      return new Result(anchor, dn, null, null);
    }

    static Result error(String dn, String type, String message) {
      return new Result(null, dn, type, message);
    }

    static Result ldap(String dn, LDAPException e) {
      return ldap(dn, e.getResultCode(), e.getDiagnosticMessage());
    }

    static Result ldap(String dn, ResultCode code, String diagnosticMessage) {
      return error(
          dn,
          "Ldap" + capitalised(code.getName()),
          "LDAP " + LdapDirectory.describe(code, diagnosticMessage));
    }
  }

  /**
   * One export of a batch.
   *
   * @param currentAnchor the object's anchor in the connector space (provisional before creation)
   * @param attributes the values the object should end up with
   * @param sentBefore whether an earlier attempt may have sent it without living to record its
   *     outcome: an add that finds its entry then found the entry that attempt created
   */
  public record Export(
      ExportChange change,
      String currentAnchor,
      Map<String, String> attributes,
      boolean sentBefore) {}

  /**
   * Applies one export.
   *
   * @param currentAnchor the object's anchor in the connector space (provisional before creation)
   * @param attributes the values the object should end up with
   */
  public Result apply(ExportChange change, String currentAnchor, Map<String, String> attributes) {
    return applyAll(List.of(new Export(change, currentAnchor, attributes, false))).get(0);
  }

  /**
   * Applies a batch of exports pipelined (see the class comment); their outcomes in the batch's
   * order. A lost connection throws {@link LdapUnavailableException}: the batch's outcomes are then
   * unknown, and a retry sends it again marked {@link Export#sentBefore}.
   */
  public List<Result> applyAll(List<Export> exports) {
    return applyAll(exports, () -> {});
  }

  /**
   * {@link #applyAll(List)}, running {@code whileInFlight} once while the batch's operations are in
   * flight: when the window is first full (or the batch's first operations are all sent), at the
   * latest before returning. So the caller's own work (recording the previous batch) overlaps the
   * directory's; an exception it throws leaves this batch's outcomes unknown, as a lost connection
   * does.
   */
  public List<Result> applyAll(List<Export> exports, Runnable whileInFlight) {
    Once inFlight = new Once(whileInFlight);
    List<Result> results = new ArrayList<>();
    int from = 0;
    while (from < exports.size()) {
      // An object's second export in a batch is planned after its first is applied.
      Set<String> objects = new HashSet<>();
      int to = from;
      while (to < exports.size()
          && (exports.get(to).currentAnchor() == null
              || objects.add(exports.get(to).currentAnchor().toLowerCase(Locale.ROOT)))) {
        to++;
      }
      results.addAll(applyDistinct(exports.subList(from, to), inFlight));
      from = to;
    }
    inFlight.run();
    return results;
  }

  /** A task run at most once. */
  private static final class Once {
    private Runnable task;

    Once(Runnable task) {
      this.task = task;
    }

    void run() {
      Runnable now = task;
      task = null;
      if (now != null) {
        now.run();
      }
    }
  }

  /** {@link #applyAll} for exports of distinct objects. */
  private List<Result> applyDistinct(List<Export> exports, Once inFlight) {
    Map<String, SearchResultEntry> found = planner.lookUp(exports);
    List<ExportPlan> plans = new ArrayList<>();
    for (Export export : exports) {
      plans.add(planner.plan(export, found));
    }
    List<Set<String>> touches = new ArrayList<>();
    for (ExportPlan plan : plans) {
      touches.add(plan.dns);
    }
    int from = 0;
    while (from < plans.size()) {
      int to = ExportPlan.conflictFreeEnd(touches, from);
      send(plans.subList(from, to), inFlight);
      from = to;
    }
    readMissingAnchors(plans);
    List<Result> results = new ArrayList<>();
    for (ExportPlan plan : plans) {
      results.add(plan.result);
    }
    return results;
  }

  /** Sends each plan's operations in order, pipelined across plans, and settles every answer. */
  private void send(List<ExportPlan> plans, Once inFlight) {
    LdapDirectory.Pipeline pipeline = directory.pipeline(WINDOW);
    while (true) {
      List<ExportPlan> sending = new ArrayList<>();
      List<UpdatableLDAPRequest> requests = new ArrayList<>();
      List<CompletableFuture<LDAPResult>> answers = new ArrayList<>();
      for (ExportPlan plan : plans) {
        if (plan.result == null && !plan.operations.isEmpty()) {
          UpdatableLDAPRequest request = plan.operations.poll();
          if (pipeline.full()) {
            inFlight.run();
          }
          sending.add(plan);
          requests.add(request);
          answers.add(pipeline.send(request));
        }
      }
      if (sending.isEmpty()) {
        break;
      }
      inFlight.run();
      pipeline.drain();
      for (int i = 0; i < sending.size(); i++) {
        settle(sending.get(i), requests.get(i), answer(answers.get(i)));
      }
    }
    for (ExportPlan plan : plans) {
      if (plan.result == null) {
        plan.result = Result.ok(plan.assignedAnchor, plan.dn);
      }
    }
  }

  private static LDAPResult answer(CompletableFuture<LDAPResult> answer) {
    try {
      return answer.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /**
   * The one place where the directory's answer to one of an export's operations becomes the
   * export's outcome: success (the next operation, or done), the add of an entry that exists
   * already, a delete of an entry that is gone (done), or that export's LDAP error.
   */
  private void settle(ExportPlan plan, UpdatableLDAPRequest request, LDAPResult answer) {
    ResultCode code = answer.getResultCode();
    if (code == ResultCode.SUCCESS) {
      if (request instanceof AddRequest) {
        plan.assignedAnchor = postReadAnchor(answer);
      }
      return;
    }
    if (request instanceof AddRequest && code == ResultCode.ENTRY_ALREADY_EXISTS) {
      alreadyExists(plan, answer);
      return;
    }
    if (request instanceof DeleteRequest && code == ResultCode.NO_SUCH_OBJECT) {
      return;
    }
    plan.operations.clear();
    plan.result = Result.ldap(dnOf(request), code, answer.getDiagnosticMessage());
  }

  private static String dnOf(UpdatableLDAPRequest request) {
    if (request instanceof AddRequest add) {
      return add.getDN();
    } else if (request instanceof ModifyRequest modify) {
      return modify.getDN();
    } else if (request instanceof ModifyDNRequest rename) {
      return rename.getDN();
    }
    return ((DeleteRequest) request).getDN();
  }

  /**
   * An add found its entry. When {@link Export#sentBefore}, it is the entry an attempt that did not
   * live to record it created (jimflow's own): it is brought to the export's values and counts as
   * done. Otherwise someone else's entry is at the DN: the export is that object's error, the entry
   * is left as it is (neither overwritten nor adopted, its anchor not taken) and the export stays
   * pending until the operator moves or removes the entry.
   */
  private void alreadyExists(ExportPlan plan, LDAPResult answer) {
    if (!plan.export.sentBefore()) {
      plan.result = Result.error(plan.dn, NOT_MANAGED, notManaged(plan.dn));
      return;
    }
    SearchResultEntry existing =
        directory.read(plan.dn, planner.requested(plan.export.attributes()));
    if (existing == null) {
      plan.result = Result.ldap(plan.dn, answer.getResultCode(), answer.getDiagnosticMessage());
      return;
    }
    planner.planModify(plan, existing);
  }

  /** The error type of an add that finds an entry jimflow did not provision. */
  public static final String NOT_MANAGED = "EntryNotManaged";

  /** The message of an add that finds an entry jimflow did not provision at {@code dn}. */
  public static String notManaged(String dn) {
    return dn + " exists and is not managed by jimflow";
  }

  private String postReadAnchor(LDAPResult answer) {
    try {
      PostReadResponseControl control = PostReadResponseControl.get(answer);
      return control == null ? null : control.getEntry().getAttributeValue(anchor);
    } catch (LDAPException e) {
      return null;
    }
  }

  /** Created entries whose directory did not answer with their anchor: read it. */
  private void readMissingAnchors(List<ExportPlan> plans) {
    for (ExportPlan plan : plans) {
      if (plan.result.succeeded()
          && plan.result.anchor() == null
          && plan.export.change() == ExportChange.Create) {
        SearchResultEntry created = directory.read(plan.dn, anchor);
        plan.result =
            Result.ok(created == null ? null : created.getAttributeValue(anchor), plan.dn);
      }
    }
  }

  private static String capitalised(String name) {
    String camel = name.replace(" ", "");
    return camel.isEmpty() ? camel : Character.toUpperCase(camel.charAt(0)) + camel.substring(1);
  }
}
