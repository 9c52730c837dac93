package io.jimflow.worker.exampledata;

import io.jimflow.config.JimflowHome;
import io.jimflow.exampledata.activities.CsvExampleDataWriter;
import io.jimflow.exampledata.activities.DataGenerationActivitiesImpl;
import io.jimflow.exampledata.activities.ExampleDataWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
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
   * {@link ExampleDataWriter} bean, and refuses requests otherwise. It writes only below the data
   * directory: {@code data/} of the data plane's base directory (the jimflow home by default),
   * where the connected systems' files lie.
   */
  @Bean
  DataGenerationActivitiesImpl dataGenerationActivities(
      ObjectProvider<ExampleDataWriter> writer,
      @Value("${jimflow.data-plane.base-directory:}") String baseDirectory) {
    return new DataGenerationActivitiesImpl(
        Optional.ofNullable(writer.getIfAvailable()), JimflowHome.resolve(Path.of(baseDirectory)));
  }
}
