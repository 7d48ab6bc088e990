// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import scala.util.Using

import io.pyhudi.filegroup.{BaseFile, LogFile, PartitionLister}
import io.pyhudi.logfile.LogFormatReader
import io.pyhudi.storage.{FileInfo, Storage}
import io.pyhudi.table.HoodieTable
import io.pyhudi.timeline.Instant
import io.pyhudi.timeline.avro.{InstantInfo, RollbackPlan, RollbackRequest}

/**
 * Plans the rollback of a pending instant (hudi-format.md §7): from its markers when it has
 * any, otherwise from a listing of the table. Paths in the plan are absolute, as Java writes
 * them. A base file becomes a delete request; a touched log file slice becomes a request whose
 * `logBlocksToBeDeleted` lists the slice's log files holding the instant's blocks, which a
 * rollback command block then cancels.
 */
private[commit] object RollbackPlanner {

  def plan(table: HoodieTable, target: Instant): RollbackPlan = {
    val markers = new Markers(table.storage, table.basePath, target.timestamp).list()
    val requests = if (markers.nonEmpty) fromMarkers(table, markers) else fromListing(table, target.timestamp)
    RollbackPlan(Some(InstantInfo(target.timestamp, target.action)), Some(requests))
  }

  /**
   * Plans the rollback of a completed instant `T` that no later instant built on (the caller
   * checks): its base files and every log file of slices based on `T` are deleted; log files of
   * older slices that `T`'s write stats name get a rollback command block.
   */
  def planCompleted(table: HoodieTable, target: Instant): RollbackPlan = {
    val listing = PartitionLister.list(table.storage, table.basePath)
    val deletes = listing.flatMap { case (partition, files) =>
      val bases = files.flatMap(f => BaseFile.parse(f.path, f.size)).filter(_.instant == target.timestamp).map(_.path)
      val logs = files.flatMap(f => LogFile.parse(f.path, f.size)).filter(_.baseInstant == target.timestamp).map(_.path)
      (bases ++ logs).map(baseRequest(partition, _))
    }
    // The commit metadata names the log files the instant appended to; no log needs reading.
    val appendedPaths = table.reload().commitMetadata(target).writeStats.flatMap(_.path).map(_.stripPrefix("/")).toSet
    val appended = listing.flatMap { case (partition, files) =>
      files.flatMap(f => LogFile.parse(f.path, f.size))
        .filter(l =>
          l.baseInstant != target.timestamp &&
            appendedPaths(if (partition.isEmpty) l.name else s"$partition/${l.name}"))
        .map(partition -> _)
    }
    RollbackPlan(Some(InstantInfo(target.timestamp, target.action)), Some(deletes ++ logRequests(appended)))
  }

  private def fromMarkers(table: HoodieTable, markers: Seq[Marker]): Seq[RollbackRequest] = {
    val bases = markers.filter(_.ioType != IOType.Append).map { m =>
      baseRequest(m.partitionPath, absolute(table, m.dataPath))
    }
    val logs = markers.filter(_.ioType == IOType.Append).flatMap { m =>
      val path = absolute(table, m.dataPath)
      // A task that failed before creating its log file left nothing to cancel.
      LogFile.parse(path, 0L).filter(_ => table.storage.exists(path))
        .map(l => m.partitionPath -> l.copy(size = table.storage.fileSize(path)))
    }
    bases ++ logRequests(logs)
  }

  private def fromListing(table: HoodieTable, instant: String): Seq[RollbackRequest] = {
    val listing = PartitionLister.list(table.storage, table.basePath)
    val bases = listing.flatMap { case (partition, files) =>
      files.flatMap(f => BaseFile.parse(f.path, f.size)).filter(_.instant == instant)
        .map(b => baseRequest(partition, b.path))
    }
    val logs = listing.flatMap { case (partition, files) =>
      files.flatMap(f => LogFile.parse(f.path, f.size))
        .filter(l => holdsBlocksOf(table.storage, l.path, instant)).map(partition -> _)
    }
    bases ++ logRequests(logs)
  }

  /** A base file delete request, shaped as Java writes it (empty file id and base instant). */
  def baseRequest(partition: String, path: String): RollbackRequest =
    RollbackRequest(partition, Some(""), Some(""), Seq(path), Some(Map.empty))

  /** One request per file slice touched through its log files. */
  private def logRequests(logs: Seq[(String, LogFile)]): Seq[RollbackRequest] =
    logs.groupBy { case (p, l) => (p, l.fileId, l.baseInstant) }.toSeq.sortBy(_._1).map {
      case ((partition, fileId, base), files) =>
        RollbackRequest(partition, Some(fileId), Some(base), Nil,
          Some(files.map { case (_, l) => l.path -> l.size }.toMap))
    }

  /** True when some block of the log file was written by `instant`. */
  def holdsBlocksOf(storage: Storage, path: String, instant: String): Boolean =
    Using.resource(LogFormatReader.read(storage, path))(_.exists(_.instantTime.contains(instant)))

  private def absolute(table: HoodieTable, relative: String): String = s"${table.basePath}/$relative"

  /** Files of one partition folder ("" = the base path). */
  def partitionFiles(table: HoodieTable, partition: String): Seq[FileInfo] =
    table.storage.listFiles(if (partition.isEmpty) table.basePath else s"${table.basePath}/$partition")
}
