// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import io.pyhudi.read.{MissingFilesMode, QueryType => QueryTypeValue}
import io.pyhudi.timeline.InstantTime

/** Options of `spark.read.format("pyhudi")`, with Apache Hudi's key names. */
object ReadConfig {

  val QueryType: ConfigEntry[QueryTypeValue] = ConfigEntry.enumeration(
    "hoodie.datasource.query.type", QueryTypeValue.Snapshot, QueryTypeValue.All,
    (q: QueryTypeValue) => q.name,
    "snapshot: latest merged view (base + log files); read_optimized: base files only " +
      "(merge-on-read tables skip log files); incremental: records written by commits in " +
      "(begin, end].")

  val BeginInstant: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.datasource.read.begin.instanttime",
    None,
    "Incremental queries: return records changed after this instant (exclusive). An instant " +
      "(yyyyMMddHHmmssSSS, yyyyMMddHHmmss, 'yyyy-MM-dd HH:mm:ss[.SSS]') or a digit string " +
      "such as 000 for the beginning of the table.",
    (k, v) => InstantTime.parseBound(k, v))

  val EndInstant: ConfigEntry[String] = ConfigEntry[String](
    "hoodie.datasource.read.end.instanttime",
    None,
    "Incremental queries: last instant to include (inclusive); defaults to the latest " +
      "completed instant. Same formats as the begin instant.",
    (k, v) => InstantTime.parseBound(k, v))

  val AsOfInstant: ConfigEntry[String] = ConfigEntry[String](
    "as.of.instant",
    None,
    "Time travel: read the table as of this instant (inclusive). Accepts yyyyMMddHHmmssSSS, " +
      "yyyyMMddHHmmss and 'yyyy-MM-dd HH:mm:ss[.SSS]', or the name of a savepoint (a value " +
      "starting with a letter), which reads as of the savepointed instant.",
    // A name is resolved against the table's savepoints once the table is open.
    (k, v) => if (v.trim.headOption.exists(_.isLetter)) v.trim else InstantTime.parseQueryInstant(k, v))

  // Apache Hudi has no such option (its readers fail on the missing file, or serve the previous
  // slice when only the listing is consulted); the key follows its read-option naming.
  val MissingFiles: ConfigEntry[MissingFilesMode] = ConfigEntry.enumeration(
    "hoodie.datasource.read.missing.files", MissingFilesMode.Fail, MissingFilesMode.All,
    (m: MissingFilesMode) => m.name,
    "What a read does when a file that a completed instant's commit metadata lists for the file " +
      "slices it serves (a latest base file, or a log file written against it) is gone from " +
      "storage: fail raises MissingFileException naming the file and the instant that wrote it; " +
      "skip leaves that file's rows out (never serving an older slice in its place) and logs a " +
      "warning per file. Writes that index or merge into such a slice always fail.")

  // pyhudi's own tuning (Apache Hudi decodes the stored partition columns of every file).
  val FooterPartitionValuesMinBytes: ConfigEntry[Long] = ConfigEntry.nonNegativeLong(
    "hoodie.datasource.read.partition.values.from.footer.min.bytes",
    2L * 1024 * 1024,
    "Columnar scans read the partition columns (and _hoodie_partition_path) of a base file's " +
      "split at least this many bytes long as constants, without decoding them, when the file's " +
      "parquet footer statistics show one value and no nulls; the values still come from the " +
      "file. It costs one more footer read per split (Hudi's bloom filter makes a footer about " +
      "1 MB at the defaults), which a small file's rows do not repay. 0: every split.")

  val entries: Seq[ConfigEntry[_]] =
    Seq(QueryType, BeginInstant, EndInstant, AsOfInstant, MissingFiles, FooterPartitionValuesMinBytes)
}
