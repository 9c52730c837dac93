package io.jimflow.cli.output;

import picocli.CommandLine.Option;

/** The {@code --json} option of the commands that can print one JSON document instead of text. */
public class JsonOutput {

  @Option(names = "--json", description = "Print one JSON document.")
  public boolean json;

  /** Whether {@code --json} was given. */
  public boolean on() {
    return json;
  }
}
