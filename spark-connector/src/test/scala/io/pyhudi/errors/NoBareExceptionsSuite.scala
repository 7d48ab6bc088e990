// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.errors

import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

/**
 * Every failure a user can meet goes through [[Errors]], so it carries an error id and a Python
 * twin class: main code outside `io.pyhudi.errors` throws no bare JVM exception of its own.
 * (Exceptions of the JDK's or libraries' APIs, e.g. IOException from storage, are wrapped where
 * they are caught.)
 */
class NoBareExceptionsSuite extends AnyFunSuite {

  private val root: Path = Paths.get(sys.props.getOrElse("pyhudi.repo", ".."),
    "spark-connector", "src", "main", "scala", "io", "pyhudi")

  private val forbidden = Seq(
    "new IllegalStateException", "new IllegalArgumentException", "throw new RuntimeException")
  private val forbiddenCalls = """\b(require|assert)\s*\(""".r

  test("no bare IllegalStateException, IllegalArgumentException, require or assert in main code") {
    val sources = Files.walk(root).iterator().asScala
      .filter(p =>
        p.toString.endsWith(".scala") && !root.relativize(p).toString.replace('\\', '/').startsWith("errors/"))
      .toSeq.sortBy(_.toString)
    assert(sources.size > 50, s"sources not found under $root")
    val offending = for {
      p <- sources
      (line, n) <- Files.readAllLines(p).asScala.zipWithIndex
      if forbidden.exists(line.contains) || forbiddenCalls.findFirstIn(line).isDefined
    } yield s"${root.relativize(p)}:${n + 1}: ${line.trim}"
    assert(offending.isEmpty,
      offending.mkString("\nthrow an io.pyhudi.errors.Errors factory error instead:\n", "\n", ""))
  }
}
