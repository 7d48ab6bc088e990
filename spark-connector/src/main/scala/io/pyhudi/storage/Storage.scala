// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.storage

import java.io.{FileNotFoundException, IOException}
import java.nio.file.{FileAlreadyExistsException, Files, StandardOpenOption}

import scala.util.control.NonFatal

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FSDataInputStream, FileStatus, FileSystem, LocalFileSystem, Path, RawLocalFileSystem}

/** A file seen by a listing: its path, size and modification time. */
final case class FileInfo(path: String, size: Long, modificationTime: Long) {
  def name: String = path.substring(path.lastIndexOf('/') + 1)
}

/**
 * The table's file system, through Hadoop's `FileSystem` so that every scheme Spark can reach
 * (file, hdfs, s3a, abfs, gs) works. All paths are strings as Hadoop prints them.
 *
 * Local paths go through Hadoop's raw local file system, so that no `.crc` side files appear
 * in a table (Apache Hudi's tables have none).
 */
final class Storage(conf: Configuration) {

  private def fs(path: Path): FileSystem = path.getFileSystem(conf) match {
    case local: LocalFileSystem => local.getRaw
    case other => other
  }

  def exists(path: String): Boolean = { val p = new Path(path); fs(p).exists(p) }

  def isDirectory(path: String): Boolean = {
    val p = new Path(path)
    try fs(p).getFileStatus(p).isDirectory
    catch { case _: FileNotFoundException => false }
  }

  /** Children of a directory; an absent directory lists as empty. */
  def list(dir: String): Seq[FileStatus] = {
    val p = new Path(dir)
    try fs(p).listStatus(p).toSeq
    catch { case _: FileNotFoundException => Nil }
  }

  def listFiles(dir: String): Seq[FileInfo] =
    list(dir).filter(_.isFile).map(s => FileInfo(s.getPath.toString, s.getLen, s.getModificationTime))

  def listDirs(dir: String): Seq[String] = list(dir).filter(_.isDirectory).map(_.getPath.toString)

  def readAll(path: String): Array[Byte] = {
    val p = new Path(path)
    val in = fs(p).open(p)
    try in.readAllBytes()
    finally in.close()
  }

  /** Modification time of a file in epoch milliseconds; None when it is absent. */
  def modificationTime(path: String): Option[Long] = {
    val p = new Path(path)
    try Some(fs(p).getFileStatus(p).getModificationTime)
    catch { case _: FileNotFoundException => None }
  }

  /** Sets a file's modification time to now (heartbeats are judged by it). */
  def touch(path: String): Unit = { val p = new Path(path); fs(p).setTimes(p, System.currentTimeMillis(), -1L) }

  /** Size in bytes of one file. */
  def fileSize(path: String): Long = { val p = new Path(path); fs(p).getFileStatus(p).getLen }

  /** A seekable stream over one file; the caller closes it. */
  def open(path: String): FSDataInputStream = { val p = new Path(path); fs(p).open(p) }

  /** Qualified form of a user-given path (scheme and authority filled in). */
  def qualify(path: String): String = {
    val p = new Path(path)
    try fs(p).makeQualified(p).toString
    catch { case e: IOException => throw e }
  }

  // Writing.

  /**
   * Writes `bytes` to a file, creating missing parent folders. Without `overwrite`, an existing
   * file fails the call (Hadoop's `FileAlreadyExistsException`), also when another process
   * creates it at the same moment. Readers may see a partly written file while this runs; use
   * [[createAtomically]] where that matters.
   */
  def create(path: String, bytes: Array[Byte], overwrite: Boolean = false): Unit = {
    val p = new Path(path)
    val out = fs(p) match {
      // Hadoop's local create checks for the file, then opens it truncating: two processes can
      // both pass the check and one would replace the other's bytes. Create-new is one step.
      case local: RawLocalFileSystem if !overwrite =>
        val file = local.pathToFile(p).toPath
        Files.createDirectories(file.getParent)
        try Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
        catch {
          case _: FileAlreadyExistsException =>
            throw new org.apache.hadoop.fs.FileAlreadyExistsException(s"File already exists: $p")
        }
      case other => other.create(p, overwrite)
    }
    try out.write(bytes)
    finally out.close()
  }

  /**
   * Publishes `bytes` at `path` all at once and never over an existing file: the bytes go to
   * `tempPath` (same folder) first, which is then renamed with [[renameNoReplace]]. Throws
   * `java.nio.file.FileAlreadyExistsException` when `path` exists; the temp file is removed on
   * every failure.
   */
  def createAtomically(path: String, bytes: Array[Byte], tempPath: String): Unit = {
    create(tempPath, bytes, overwrite = true)
    val moved =
      try renameNoReplace(tempPath, path)
      catch { case NonFatal(e) => deleteQuietly(tempPath); throw e }
    if (!moved) {
      deleteQuietly(tempPath)
      throw new FileAlreadyExistsException(path, null, "file already exists; it was not replaced")
    }
  }

  /**
   * Renames a file unless the destination exists; false (and nothing moved) when it does.
   * Local files are hard-linked then unlinked, so the check and the move are one atomic step.
   * Other file systems check for the destination, then use Hadoop's rename, whose contract
   * (kept by HDFS) refuses an existing destination file.
   */
  def renameNoReplace(src: String, dst: String): Boolean = {
    val s = new Path(src)
    val d = new Path(dst)
    fs(s) match {
      case local: RawLocalFileSystem =>
        val source = local.pathToFile(s).toPath
        val linked =
          try { Files.createLink(local.pathToFile(d).toPath, source); true }
          catch {
            case _: FileAlreadyExistsException => return false
            // File systems without hard links: a checked move, atomic enough for one writer.
            case _: UnsupportedOperationException | _: java.nio.file.FileSystemException => false
          }
        if (linked) { Files.delete(source); true }
        else moveLocal(local, s, d)
      case other =>
        if (other.exists(d)) false
        else if (other.rename(s, d)) true
        else if (other.exists(d)) false
        else throw new IOException(s"Cannot rename $src to $dst")
    }
  }

  /**
   * Moves `src` over `dst`, replacing it. Local files are moved in one atomic step; elsewhere
   * the destination is deleted first, so a crash in between leaves `dst` absent (callers keep a
   * backup for that window, as Apache Hudi does for `hoodie.properties`).
   */
  def replace(src: String, dst: String): Unit = {
    val s = new Path(src)
    val d = new Path(dst)
    fs(s) match {
      case local: RawLocalFileSystem =>
        Files.move(local.pathToFile(s).toPath, local.pathToFile(d).toPath,
          java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE)
        // A checksum side file of the replaced content (Hadoop's checksum layer wrote it) would
        // make that layer reject the new bytes.
        val crc = new Path(d.getParent, s".${d.getName}.crc")
        if (local.exists(crc)) local.delete(crc, false)
      case other =>
        if (other.exists(d) && !other.delete(d, false)) throw new IOException(s"Cannot replace $dst")
        if (!other.rename(s, d)) throw new IOException(s"Cannot rename $src to $dst")
    }
  }

  private def moveLocal(local: RawLocalFileSystem, s: Path, d: Path): Boolean =
    try { Files.move(local.pathToFile(s).toPath, local.pathToFile(d).toPath); true }
    catch { case _: FileAlreadyExistsException => false }

  /** Deletes a file or folder (folders only when `recursive`); false when it was absent. */
  def delete(path: String, recursive: Boolean = false): Boolean = {
    val p = new Path(path)
    val deleted = fs(p).delete(p, recursive)
    // A checksum side file left by a writer that went through Hadoop's checksum layer.
    if (p.getParent != null) {
      val crc = new Path(p.getParent, s".${p.getName}.crc")
      if (fs(crc).exists(crc)) fs(crc).delete(crc, false)
    }
    deleted
  }

  /** Best-effort delete for cleanup paths that must not hide the original failure. */
  def deleteQuietly(path: String): Unit =
    try delete(path, recursive = true)
    catch { case NonFatal(_) => () }

  /** Creates a folder and its missing parents; succeeds when it already exists. */
  def mkdirs(path: String): Unit = {
    val p = new Path(path)
    if (!fs(p).mkdirs(p)) throw new IOException(s"Cannot create folder $path")
  }

  /** Every file under `dir` at any depth; an absent folder lists as empty. */
  def listFilesRecursively(dir: String): Seq[FileInfo] =
    list(dir).flatMap { s =>
      if (s.isDirectory) listFilesRecursively(s.getPath.toString)
      else Seq(FileInfo(s.getPath.toString, s.getLen, s.getModificationTime))
    }
}
