// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.testutil

import java.io.{File, FileInputStream}
import java.nio.file.{Files, Path, StandardCopyOption}
import java.util.zip.ZipInputStream

import scala.collection.mutable

/**
 * The real Hudi tables of the test corpus: zips such as `mor/v6_trips_8i1u.zip` under the
 * directory given by the system property `pyhudi.corpus` (set by the sbt build). The corpus is
 * read-only; each table is unzipped once per JVM into a temporary directory removed at exit.
 */
object Corpus {

  /** The corpus directory holding `cow/` and `mor/`. */
  lazy val root: File = {
    val dir = new File(sys.props.getOrElse("pyhudi.corpus",
        sys.error("System property pyhudi.corpus is not set; run the tests through sbt")))
    require(dir.isDirectory, s"Corpus directory $dir does not exist")
    dir
  }

  private lazy val scratch: Path = TempDirs.create("pyhudi-corpus")

  private val extracted = mutable.Map.empty[String, File]

  /** The zip of a table, e.g. `zip("mor/v6_trips_8i1u")`. */
  def zip(name: String): File = {
    val file = new File(root, s"$name.zip")
    require(file.isFile, s"No corpus table $name ($file)")
    file
  }

  /** The expected rows file beside a table's zip, if there is one. */
  def expected(name: String): Option[File] = Some(new File(root, s"$name.expected.json")).filter(_.isFile)

  /** Names of the tables in one corpus folder (`cow` or `mor`), e.g. `mor/v6_nonpartitioned`. */
  def tables(folder: String): Seq[String] =
    Option(new File(root, folder).listFiles()).toSeq.flatten.map(_.getName)
      .filter(_.endsWith(".zip")).map(n => s"$folder/${n.stripSuffix(".zip")}").sorted

  /**
   * Unzips a table once per JVM and returns its table directory (the zip's single top-level
   * folder, or the extraction folder when the zip has several entries at the top).
   */
  def extract(name: String): File = synchronized {
    extracted.getOrElseUpdate(name, {
        val target = scratch.resolve(name.replace('/', '_'))
        Files.createDirectories(target)
        unzip(zip(name), target)
        target.toFile.listFiles() match {
          case Array(single) if single.isDirectory => single
          case _ => target.toFile
        }
      })
  }

  /** Every file under `dir` whose name satisfies `p`, sorted by path. */
  def filesUnder(dir: File, p: String => Boolean): Seq[File] = {
    val stream = Files.walk(dir.toPath)
    try {
      val it = stream.iterator()
      val out = Seq.newBuilder[File]
      while (it.hasNext) { val f = it.next().toFile; if (f.isFile && p(f.getName)) out += f }
      out.result().sortBy(_.getPath)
    } finally stream.close()
  }

  private def unzip(zip: File, target: Path): Unit = {
    val in = new ZipInputStream(new FileInputStream(zip))
    try {
      var entry = in.getNextEntry
      while (entry != null) {
        val out = target.resolve(entry.getName).normalize()
        require(out.startsWith(target), s"Zip entry ${entry.getName} escapes $target")
        if (entry.isDirectory) Files.createDirectories(out)
        else {
          Files.createDirectories(out.getParent)
          Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING)
        }
        entry = in.getNextEntry
      }
    } finally in.close()
  }
}
