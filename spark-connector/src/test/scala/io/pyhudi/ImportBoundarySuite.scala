// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

/**
 * Keeps the layout honest: only `io.pyhudi.spark` uses Spark beyond Catalyst's row and type
 * classes, nothing depends on the Spark glue, and every package says what it is.
 */
class ImportBoundarySuite extends AnyFunSuite {

  private val root: Path = Paths.get(sys.props.getOrElse("pyhudi.repo", ".."),
    "spark-connector", "src", "main", "scala", "io", "pyhudi")

  private def sources: Seq[Path] =
    Files.walk(root).iterator().asScala.filter(_.toString.endsWith(".scala")).toSeq.sortBy(_.toString)

  private def relative(p: Path): String = root.relativize(p).toString.replace('\\', '/')

  private def isGlue(p: Path): Boolean = relative(p).startsWith("spark/")

  /** Catalyst's data classes: rows, types and values that engine-neutral code may handle. */
  private val allowedSpark: Seq[String] = Seq(
    "org.apache.spark.sql.types.",
    "org.apache.spark.unsafe.types.",
    "org.apache.spark.sql.catalyst.InternalRow",
    "org.apache.spark.sql.catalyst.expressions.{GenericInternalRow",
    "org.apache.spark.sql.catalyst.expressions.GenericInternalRow",
    "org.apache.spark.sql.catalyst.expressions.JoinedRow",
    "org.apache.spark.sql.catalyst.expressions.SpecializedGetters",
    "org.apache.spark.sql.catalyst.util.{ArrayBasedMapData, GenericArrayData}",
    "org.apache.spark.sql.catalyst.util.{ArrayData, MapData}")

  /** Named exceptions, each with its reason. */
  private val exceptions: Map[String, String] = Map(
    // Log rows wait for their slice's base file as one UnsafeRow each, not an object per value:
    // a third less GC time on a merge-on-read scan.
    "read/FileSliceReader.scala" -> "org.apache.spark.sql.catalyst.expressions.UnsafeProjection",
    // The logged keys' bytes lie in one array, hashed and compared in place 8 bytes at a time
    // (UTF8String, allowed, offers them only a byte at a time): a merge-on-read scan's key
    // lookups wait on memory, and the fewer places a lookup touches, the less they wait.
    "merge/LogRecords.scala" -> "org.apache.spark.unsafe.Platform",
    // The same keys hashed 8 bytes at a time, for the merges' and the bloom index's key sets.
    "keygen/KeyHash.scala" -> "org.apache.spark.unsafe.Platform")

  private def imports(p: Path): Seq[String] =
    Files.readAllLines(p).asScala.map(_.trim).filter(_.startsWith("import ")).map(_.stripPrefix("import ").trim).toSeq

  test("only io.pyhudi.spark imports Spark beyond Catalyst's row and type classes") {
    assert(sources.count(isGlue) > 10 && sources.count(!isGlue(_)) > 50, s"sources not found under $root")
    val offending = sources.filterNot(isGlue).flatMap { p =>
      imports(p).filter(_.startsWith("org.apache.spark"))
        .filterNot(i => allowedSpark.exists(i.startsWith) || exceptions.get(relative(p)).contains(i))
        .map(i => s"${relative(p)}: import $i")
    }
    assert(offending.isEmpty, offending.mkString("\n", "\n", ""))
  }

  test("no package outside io.pyhudi.spark depends on the Spark glue") {
    val offending = sources.filterNot(isGlue).filter { p =>
      Files.readString(p).linesIterator.exists(l =>
        l.contains("io.pyhudi.spark.") || l.trim == "package io.pyhudi.spark")
    }.map(relative)
    assert(offending.isEmpty, offending.mkString("\n", "\n", ""))
  }

  test("every package has a package.scala that says what it is") {
    val dirs = sources.map(_.getParent).distinct.filterNot(_ == root)
    val undocumented = dirs.filterNot { d =>
      val doc = d.resolve("package.scala")
      Files.exists(doc) && Files.readString(doc).contains("/**")
    }.map(d => root.relativize(d).toString)
    assert(undocumented.isEmpty, undocumented.mkString("\n", "\n", ""))
  }
}
