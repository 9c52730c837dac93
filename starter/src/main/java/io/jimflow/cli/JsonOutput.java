package io.jimflow.cli;

import picocli.CommandLine.Option;

/** The {@code --json} option of the commands that can print one JSON document instead of text. */
public class JsonOutput {

  @Option(names = "--json", description = "Print one JSON document.")
  boolean json;

  /** Whether {@code --json} was given. */
  boolean on() {
    return json;
  }
}
