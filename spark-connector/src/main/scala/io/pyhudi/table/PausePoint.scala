// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import java.io.File

/**
 * Named points of a write where the interleaving tests hold one writer so that another can
 * overtake it (A starts, B starts, A commits, B commits). Inert unless the writing thread's
 * Spark local property [[Property]] names a gate path prefix, which only those tests set: when
 * the local file `<prefix>.<point>` exists, the writer creates `<prefix>.<point>.reached` and
 * waits until the test deletes the gate (at most [[MaxWaitMs]]).
 */
object PausePoint {
  val Property = "pyhudi.test.pause"

  val MaxWaitMs = 300000L

  def apply(prefix: Option[String], point: String): Unit = prefix.filter(_.nonEmpty).foreach { p =>
    val gate = new File(s"$p.$point")
    if (gate.exists()) {
      new File(s"$p.$point.reached").createNewFile()
      val deadline = System.currentTimeMillis() + MaxWaitMs
      while (gate.exists() && System.currentTimeMillis() < deadline) Thread.sleep(20)
    }
  }
}
