package io.pyhudi.filegroup

import io.pyhudi.storage.{FileInfo, Storage}

/**
 * Finds a table's partitions by walking the base path. A folder is a partition when it holds
 * `.hoodie_partition_metadata` (Apache Hudi's rule), or Hudi-named data files when the metafile
 * is missing. Hidden and underscore folders (`.hoodie`, Spark's `_temporary`) are never entered.
 */
object PartitionLister {
  val PartitionMetafile = ".hoodie_partition_metadata"

  /** Relative partition paths ("" for the base path itself), with the files each one holds. */
  def list(storage: Storage, basePath: String): Seq[(String, Seq[FileInfo])] = {
    def walk(dir: String, rel: String): Seq[(String, Seq[FileInfo])] = {
      val children = storage.list(dir)
      val files = children.filter(_.isFile)
        .map(s => FileInfo(s.getPath.toString, s.getLen, s.getModificationTime))
      val isPartition = files.exists(_.name.startsWith(PartitionMetafile)) ||
        files.exists(f => BaseFile.parse(f.path, f.size).isDefined || LogFile.parse(f.path, f.size).isDefined)
      if (isPartition) Seq(rel -> files)
      else children.filter(_.isDirectory).map(_.getPath.getName)
        .filterNot(n => n.startsWith(".") || n.startsWith("_"))
        .sorted
        .flatMap(n => walk(s"$dir/$n", if (rel.isEmpty) n else s"$rel/$n"))
    }
    walk(basePath, "")
  }

  /** Files of the given relative partitions only (used when a commit names its partitions). */
  def listSome(storage: Storage, basePath: String, partitions: Seq[String]): Seq[(String, Seq[FileInfo])] =
    partitions.distinct.sorted.map { p =>
      p -> storage.listFiles(if (p.isEmpty) basePath else s"$basePath/$p")
    }
}
