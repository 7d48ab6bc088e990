// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import java.nio.charset.StandardCharsets.UTF_8

import io.pyhudi.storage.Storage

/** How a data file was produced, as recorded in its marker's name (hudi-format.md §7). */
sealed abstract class IOType(val name: String) {
  override def toString: String = name
}

object IOType {

  /** A new base file (new file group). */
  case object Create extends IOType("CREATE")

  /** A new base file version merged from an older one. */
  case object Merge extends IOType("MERGE")

  /** A log file appended to (table version 6 names the log file itself). */
  case object Append extends IOType("APPEND")

  val All: Seq[IOType] = Seq(Create, Merge, Append)

  def parse(s: String): Option[IOType] = All.find(_.name == s)
}

/**
 * One marker: a data file a pending instant creates or appends to.
 *
 * @param partitionPath relative partition path, "" when unpartitioned
 */
final case class Marker(partitionPath: String, fileName: String, ioType: IOType) {

  /** The data file relative to the base path, as write stats name it. */
  def dataPath: String = if (partitionPath.isEmpty) fileName else s"$partitionPath/$fileName"

  /** The marker name relative to the instant's marker folder. */
  def markerName: String = s"$dataPath${Markers.Infix}$ioType"

  /** The file id of the data file (base or log file), when its name is one Hudi writes. */
  def fileId: Option[String] = io.pyhudi.filegroup.BaseFile.parse(fileName, 0L).map(_.fileId)
    .orElse(io.pyhudi.filegroup.LogFile.parse(fileName, 0L).map(_.fileId))
}

/** Records, before a task writes a data file, that it is about to. */
trait MarkerWriter {
  def create(partitionPath: String, fileName: String, ioType: IOType): Marker
}

/**
 * The markers of one instant under `.hoodie/.temp/<instant>/`. This writer creates direct
 * markers (one empty file per data file, created before the data file); [[list]] also reads
 * the `MARKERS<n>` files that Hudi's timeline server writes when `MARKERS.type` is present.
 */
final class Markers(storage: Storage, basePath: String, val instantTime: String) extends MarkerWriter {

  /** The instant's marker folder. */
  val folder: String = s"$basePath/.hoodie/.temp/$instantTime"

  /** Records that `fileName` in `partitionPath` is about to be written; idempotent. */
  def create(partitionPath: String, fileName: String, ioType: IOType): Marker = {
    val marker = Marker(partitionPath, fileName, ioType)
    val path = s"$folder/${marker.markerName}"
    if (!storage.exists(path)) {
      try storage.create(path, Array.emptyByteArray)
      catch { case _: org.apache.hadoop.fs.FileAlreadyExistsException => () }
    }
    marker
  }

  /** Every marker of the instant, direct and timeline-server based, without duplicates. */
  def list(): Seq[Marker] = {
    val anchor = s"/.temp/$instantTime/"
    val files = storage.listFilesRecursively(folder).map { f =>
      f.path.substring(f.path.indexOf(anchor) + anchor.length) -> f.path
    }
    val direct = files.flatMap { case (relative, _) => Markers.parse(relative) }
    // Timeline-server markers: top-level MARKERS0, MARKERS1, ... with one marker name per line.
    val batched =
      if (!files.exists(_._1 == Markers.TypeFile)) Nil
      else files.filter { case (relative, _) => Markers.isBatchFile(relative) }.flatMap { case (_, path) =>
        new String(storage.readAll(path), UTF_8).split('\n').map(_.trim).filter(_.nonEmpty).flatMap(Markers.parse)
      }
    (direct ++ batched).distinct
  }

  /** True when the marker folder exists, whether or not it holds markers. */
  def exist(): Boolean = storage.exists(folder)

  /** Removes the marker folder; after a commit or a rollback. */
  def deleteAll(): Unit = storage.delete(folder, recursive = true)
}

object Markers {
  val Infix = ".marker."
  val TypeFile = "MARKERS.type"

  /** Prefix of the timeline service's batch files, `MARKERS0`, `MARKERS1`, ... */
  val BatchPrefix = "MARKERS"

  /**
   * A batch file (or one being replaced, `MARKERS<n>.tmp`, which holds a superset of it) at the
   * top of the marker folder: Apache Hudi reads every such file too.
   */
  def isBatchFile(relative: String): Boolean =
    relative.startsWith(BatchPrefix) && relative != TypeFile && !relative.contains('/')

  /** Parses `<partition>/<dataFileName>.marker.<IOType>`; None for any other name. */
  def parse(relativeName: String): Option[Marker] = {
    val at = relativeName.lastIndexOf(Infix)
    if (at < 0) None
    else IOType.parse(relativeName.substring(at + Infix.length)).map { io =>
      val data = relativeName.substring(0, at)
      val slash = data.lastIndexOf('/')
      Marker(if (slash < 0) "" else data.substring(0, slash), data.substring(slash + 1), io)
    }
  }
}
