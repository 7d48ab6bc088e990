// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

/**
 * Named points between the steps of a multi-step change to a table, where the crash tests stop
 * the JVM at once (`Runtime.halt`, like `kill -9`) to check that every intermediate state is
 * readable and recoverable. Inert unless the environment variable `PYHUDI_CRASH_AT` names the
 * point, which only those tests set.
 */
object CrashPoint {
  private val target: Option[String] = sys.env.get("PYHUDI_CRASH_AT").map(_.trim).filter(_.nonEmpty)

  def apply(name: String): Unit = if (target.contains(name)) Runtime.getRuntime.halt(137)
}
