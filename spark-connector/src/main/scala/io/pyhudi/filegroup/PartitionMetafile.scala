// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import java.nio.file.FileAlreadyExistsException
import java.util.UUID

import io.pyhudi.storage.{JavaProperties, Storage}

/**
 * `.hoodie_partition_metadata` (hudi-format.md §1.5): the file that makes a folder a partition
 * for Apache Hudi, holding the instant that created the partition and its depth.
 */
object PartitionMetafile {

  val FileName: String = PartitionLister.PartitionMetafile

  /** The metafile's path for a relative partition path ("" = the base path itself). */
  def path(basePath: String, partitionPath: String): String =
    if (partitionPath.isEmpty) s"$basePath/$FileName" else s"$basePath/$partitionPath/$FileName"

  /** Number of `/`-separated segments: 0 for a non-partitioned table. */
  def depth(partitionPath: String): Int = partitionPath.split('/').count(_.nonEmpty)

  /**
   * Creates the partition folder and its metafile unless the metafile exists. Safe when several
   * tasks race: each writes a task-unique temp file (hidden from hudi-rs, whose listing skips
   * names starting with `.hoodie_partition_metadata`) and renames it without replacing; the
   * first rename wins and the others drop their temp file.
   *
   * @return true when this call created the metafile
   */
  def ensure(storage: Storage, basePath: String, partitionPath: String, commitTime: String): Boolean = {
    val target = path(basePath, partitionPath)
    if (storage.exists(target)) return false
    val content = JavaProperties.store(
      Seq("commitTime" -> commitTime, "partitionDepth" -> depth(partitionPath).toString), "partition metadata")
    try {
      storage.createAtomically(target, content, s"${target}_${UUID.randomUUID()}")
      true
    } catch { case _: FileAlreadyExistsException => false }
  }
}
