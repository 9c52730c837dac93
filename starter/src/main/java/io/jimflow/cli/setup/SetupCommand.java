package io.jimflow.cli.setup;

import io.jimflow.cli.shared.ClientCommand;
import io.jimflow.cli.shared.ExitCodes;
import io.jimflow.client.JimflowClient;
import io.jimflow.common.JimflowSearchAttributes.Registration;
import io.jimflow.common.SearchAttributeSetup;
import java.util.List;
import picocli.CommandLine.Command;

/**
 * {@code jimflow setup}: registers jimflow's custom search attributes in a namespace of any
 * Temporal server, leaving those already there alone, and says what it did. Workers refuse to start
 * without them.
 */
@Command(
    name = "setup",
    description = {
      "Register jimflow's search attributes (with their types) in the namespace; idempotent.",
      "Exits 1 when one exists with another type, naming the commands that fix it."
    })
public class SetupCommand extends ClientCommand {

  @Override
  public int run(JimflowClient client) {
    SearchAttributeSetup.Report report = client.searchAttributeSetup().registerMissing();
    out().println("Search attributes in namespace " + report.namespace() + ":");
    print("registered", report.registered());
    print("present", report.present());
    report
        .mistyped()
        .forEach(
            m ->
                out()
                    .printf(
                        "  %-11s %s (%s, jimflow needs %s)%n",
                        "WRONG TYPE", m.wanted().name(), m.actualType(), m.wanted().type()));
    if (report.ready()) {
      return ExitCodes.OK;
    }
    report.problems().forEach(p -> err().println("jimflow: " + p));
    report.fixes("--address " + connection.address).forEach(f -> err().println("  fix: " + f));
    return ExitCodes.ENDED_BADLY;
  }

  private void print(String what, List<Registration> attributes) {
    attributes.forEach(sa -> out().printf("  %-11s %s (%s)%n", what, sa.name(), sa.type()));
  }
}
