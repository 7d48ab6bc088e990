package io.pyhudi.storage

import java.io.{FileNotFoundException, IOException}

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{FSDataInputStream, FileStatus, FileSystem, Path}

/** A file seen by a listing: its path, size and modification time. */
final case class FileInfo(path: String, size: Long, modificationTime: Long) {
  def name: String = path.substring(path.lastIndexOf('/') + 1)
}

/**
 * The table's file system, through Hadoop's `FileSystem` so that every scheme Spark can reach
 * (file, hdfs, s3a, abfs, gs) works. All paths are strings as Hadoop prints them.
 */
final class Storage(conf: Configuration) {

  private def fs(path: Path): FileSystem = path.getFileSystem(conf)

  def exists(path: String): Boolean = { val p = new Path(path); fs(p).exists(p) }

  def isDirectory(path: String): Boolean = {
    val p = new Path(path)
    try fs(p).getFileStatus(p).isDirectory catch { case _: FileNotFoundException => false }
  }

  /** Children of a directory; an absent directory lists as empty. */
  def list(dir: String): Seq[FileStatus] = {
    val p = new Path(dir)
    try fs(p).listStatus(p).toSeq catch { case _: FileNotFoundException => Nil }
  }

  def listFiles(dir: String): Seq[FileInfo] =
    list(dir).filter(_.isFile).map(s => FileInfo(s.getPath.toString, s.getLen, s.getModificationTime))

  def listDirs(dir: String): Seq[String] = list(dir).filter(_.isDirectory).map(_.getPath.toString)

  def readAll(path: String): Array[Byte] = {
    val p = new Path(path)
    val in = fs(p).open(p)
    try in.readAllBytes() finally in.close()
  }

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
}
