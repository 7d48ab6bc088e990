// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import io.pyhudi.storage.{FileInfo, Storage}

/**
 * Finds a table's partitions by walking the base path. A folder is a partition when it holds
 * `.hoodie_partition_metadata` (Apache Hudi's rule), or Hudi-named data files when the metafile
 * is missing. Hidden folders (`.hoodie`) are never entered. Underscore folders are entered, since
 * Hudi writes null and empty partition values to `__HIVE_DEFAULT_PARTITION__`, but below any
 * other underscore folder (Spark's `_temporary`) only the metafile makes a partition.
 */
object PartitionLister {
  val PartitionMetafile = ".hoodie_partition_metadata"

  /** The folder Hudi writes a null or empty partition value to (plain or after `field=`). */
  val DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

  /** Relative partition paths ("" for the base path itself), with the files each one holds. */
  def list(storage: Storage, basePath: String): Seq[(String, Seq[FileInfo])] = {
    def walk(dir: String, rel: String, metafileOnly: Boolean): Seq[(String, Seq[FileInfo])] = {
      val children = storage.list(dir)
      val files = children.filter(_.isFile)
        .map(s => FileInfo(s.getPath.toString, s.getLen, s.getModificationTime))
      val isPartition = files.exists(_.name.startsWith(PartitionMetafile)) || (!metafileOnly &&
        files.exists(f => BaseFile.parse(f.path, f.size).isDefined || LogFile.parse(f.path, f.size).isDefined))
      if (isPartition) Seq(rel -> files)
      else children.filter(_.isDirectory).map(_.getPath.getName)
        .filterNot(_.startsWith("."))
        .sorted
        .flatMap(n => walk(s"$dir/$n", if (rel.isEmpty) n else s"$rel/$n", metafileOnly || isScratch(n)))
    }
    walk(basePath, "", metafileOnly = false)
  }

  /** An underscore folder that is not Hudi's default partition (Spark's `_temporary`). */
  private def isScratch(name: String): Boolean =
    name.startsWith("_") && name != DefaultPartition

  /** Files of the given relative partitions only (used when a commit names its partitions). */
  def listSome(storage: Storage, basePath: String, partitions: Seq[String]): Seq[(String, Seq[FileInfo])] =
    partitions.distinct.sorted.map { p =>
      p -> storage.listFiles(if (p.isEmpty) basePath else s"$basePath/$p")
    }
}
