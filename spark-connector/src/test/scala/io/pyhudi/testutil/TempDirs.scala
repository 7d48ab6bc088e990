// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.testutil

import java.nio.file.{Files, Path}
import java.util.Comparator

import scala.collection.mutable

/**
 * Scratch folders of the unit suites. Fixtures hand out tables that outlive one test, so every
 * folder is removed when the forked test JVM exits rather than after each test.
 */
object TempDirs {

  private val created = mutable.ArrayBuffer.empty[Path]

  sys.addShutdownHook(created.synchronized(created.foreach(deleteRecursively)))

  /** A new empty folder under the system temp folder, deleted at JVM exit. */
  def create(prefix: String): Path = created.synchronized {
    val dir = Files.createTempDirectory(prefix)
    created += dir
    dir
  }

  /** Deletes a folder and everything under it; a missing folder is fine. */
  def deleteRecursively(dir: Path): Unit = if (Files.exists(dir)) {
    val stream = Files.walk(dir)
    try stream.sorted(Comparator.reverseOrder[Path]()).forEach(p => Files.deleteIfExists(p))
    finally stream.close()
  }
}
