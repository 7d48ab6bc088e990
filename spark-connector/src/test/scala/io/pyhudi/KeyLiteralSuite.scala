// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

/**
 * Every option and table-property key is spelled once: main code refers to its definition (a
 * config entry, a `TableConfig` constant) and error messages interpolate it. This scans the string
 * literals of main sources for `hoodie.<name>` outside the files that define keys.
 */
class KeyLiteralSuite extends AnyFunSuite {

  private val root: Path = Paths.get(sys.props.getOrElse("pyhudi.repo", ".."),
    "spark-connector", "src", "main", "scala", "io", "pyhudi")

  /**
   * Files whose purpose is to define keys: the option entries and the table properties; and the
   * error registry, whose one-line meanings (docs/errors.md) name keys as prose.
   */
  private val definingFiles =
    Set("config/ReadConfig.scala", "config/WriteConfig.scala", "table/TableConfig.scala", "errors/ErrorId.scala")

  /** Single constants elsewhere, each the one definition of a file name, by file. */
  private val definingConstants: Map[String, Set[String]] = Map(
    "table/HoodieTable.scala" -> Set("""val PropertiesFile = "hoodie.properties""""),
    "table/TablePropertiesWriter.scala" -> Set("""val BackupFile = "hoodie.properties.backup""""))

  private val literal = """"(?:[^"\\\n]|\\.)*"""".r
  private val interpolation = """\$\{[^}]*\}""".r
  // Not after a word character or a dot: `spark.hoodie.x` and `com.uber.hoodie.x` are other names.
  private val key = """(?<![\w.$])hoodie\.[a-z]""".r

  /** `file:line: text` of each non-comment line with a `hoodie.` key in a string literal. */
  private def offending(file: String, lines: Seq[String]): Seq[String] =
    lines.zipWithIndex.collect {
      case (line, i)
          if !isComment(line) && !definingConstants.getOrElse(file, Set.empty).contains(line.trim) &&
            literal.findAllIn(line).exists(l => key.findFirstIn(interpolation.replaceAllIn(l, "")).isDefined) =>
        s"$file:${i + 1}: ${line.trim}"
    }

  private def isComment(line: String): Boolean = {
    val t = line.trim
    t.startsWith("//") || t.startsWith("*") || t.startsWith("/*")
  }

  test("the scan finds keys in literals and messages, not in identifiers or other names") {
    val hits = offending("x.scala",
      Seq(
        """val k = "hoodie.table.name"""",
        """throw Errors.x(s"set hoodie.metadata.enable=false")""",
        """s"Not a table: $p (no .hoodie/hoodie.properties)"""",
        "val n = s\"$" + "{hoodie.config.name}\"",
        """val c = "com.uber.hoodie.bloomfilter"""",
        """"spark.hoodie.index.type"""",
        """// see "hoodie.table.name"""",
        """val ns = s"$prefix.$table""""))
    assert(hits.map(_.takeWhile(_ != ' ')) == Seq("x.scala:1:", "x.scala:2:", "x.scala:3:"))
  }

  test("no main source outside the key definitions spells a hoodie.* key") {
    val sources = Files.walk(root).iterator().asScala.filter(_.toString.endsWith(".scala")).toSeq.sortBy(_.toString)
    assert(sources.size > 50, s"sources not found under $root")
    val found = sources.flatMap { p =>
      val file = root.relativize(p).toString.replace('\\', '/')
      if (definingFiles(file)) Nil else offending(file, Files.readAllLines(p).asScala.toSeq)
    }
    assert(found.isEmpty,
      "refer to the key's definition (a config entry's .key or a TableConfig constant):" +
        found.mkString("\n", "\n", ""))
  }
}
