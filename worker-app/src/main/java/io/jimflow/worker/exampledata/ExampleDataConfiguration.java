package io.jimflow.worker.exampledata;

import io.jimflow.config.JimflowHome;
import io.jimflow.exampledata.CsvExampleDataWriter;
import io.jimflow.exampledata.DataGenerationActivitiesImpl;
import io.jimflow.exampledata.ExampleDataWriter;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The beans of example data generation, which {@code TemporalWorkersConfiguration} registers on the
 * maintenance task queue.
 */
@Configuration
public class ExampleDataConfiguration {

  /** The data plane's example data writer, writing CSV files on this worker. */
  @Bean
  ExampleDataWriter exampleDataWriter() {
    return new CsvExampleDataWriter();
  }

  /**
   * Example data generation as an activity; uses the data plane's writer when the worker has an
   * {@link ExampleDataWriter} bean, and refuses requests otherwise.
   */
  @Bean
  DataGenerationActivitiesImpl dataGenerationActivities(ObjectProvider<ExampleDataWriter> writer) {
    return new DataGenerationActivitiesImpl(
        Optional.ofNullable(writer.getIfAvailable()), JimflowHome.dir());
  }
}
