// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import java.util.Locale

/**
 * Where an option's value comes from, highest first: the read or write option itself, then
 * the Spark session conf as `spark.hoodie.<key>` (`spark.conf.set("spark.hoodie.x", ...)` or
 * `--conf spark.hoodie.x=...`, as Apache Hudi 1.x accepts), then the table's `hoodie.properties`
 * where the key is a table property, then the entry's default. [[withSessionConf]] applies the
 * first two steps; the table and default steps stay with each entry's reader (`WriteSpec`,
 * `QuerySpec`), which know which keys the table records.
 */
object SessionConf {

  val Prefix = "spark.hoodie."

  /** The `hoodie.*` options the session conf sets through `spark.hoodie.*` keys. */
  def hoodieOptions(sessionConf: Map[String, String]): Map[String, String] =
    sessionConf.collect {
      case (k, v) if k.toLowerCase(Locale.ROOT).startsWith(Prefix) => k.substring("spark.".length) -> v
    }

  /** `options` completed by the session conf: an option given directly always wins. */
  def withSessionConf(options: Map[String, String], sessionConf: Map[String, String]): Map[String, String] = {
    val given = options.keySet.map(_.toLowerCase(Locale.ROOT))
    hoodieOptions(sessionConf).filterNot { case (k, _) => given(k.toLowerCase(Locale.ROOT)) } ++ options
  }
}
