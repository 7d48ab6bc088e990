// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.spark.SparkContext
import org.apache.spark.rdd.RDD

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.spark.shims.ParquetReaderShim.FileReader
import io.pyhudi.timeline.{CommitMetadata, Instant}
import io.pyhudi.write.commit.WriteTransaction

/**
 * The new-keys check of optimistic concurrency control (the duplicate-key hole of Apache Hudi
 * issue 9831): two writers that insert the same new key plan it into different file groups, so
 * the file-group check lets both commit. At commit, the keys of the base files a concurrent
 * commit inserted into are joined with the keys this write inserted, on the executors.
 * Inserts that went to log files (bucket index on merge-on-read) are not read here; the bucket
 * index routes one key to one file group, which the file-group check covers.
 */
object NewKeyConflicts {

  /** At most this many duplicate keys are named. */
  val Shown = 11

  /**
   * @param inserted this write's inserted records as index identities: (partition path, key),
   *                 or ("", key) under a global index
   */
  def apply(sc: SparkContext, inserted: RDD[(String, String)], global: Boolean, basePath: String,
      keyReader: FileReader): WriteTransaction.NewKeyCheck = (_: Instant, metadata: CommitMetadata) => {
    val files = metadata.writeStats.filter(_.numInserts > 0).flatMap { s =>
      s.path.filter(_.endsWith(BaseFile.Extension))
        .flatMap(p => BaseFile.parse(s"$basePath/${p.stripPrefix("/")}", s.fileSizeInBytes))
        .map(b => (if (global) "" else s.partitionPath) -> b)
    }
    if (files.isEmpty) Nil
    else {
      val reader = keyReader
      val theirs = sc.parallelize(files, math.max(1, math.min(files.size, sc.defaultParallelism * 2)))
        .flatMap { case (partition, base) => SparkIndex.keysOf(reader, base).map(k => (partition, k) -> ()) }
      inserted.map(_ -> ()).join(theirs).keys.map(_._2).distinct().take(Shown).toSeq.sorted
    }
  }
}
