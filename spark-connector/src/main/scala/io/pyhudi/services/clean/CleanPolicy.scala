// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clean

import io.pyhudi.config.WriteConfig

/** Apache Hudi's clean policies (`hoodie.clean.policy`), by their names on the timeline. */
sealed abstract class CleanPolicy(val name: String)

object CleanPolicy {
  case object KeepLatestCommits extends CleanPolicy("KEEP_LATEST_COMMITS")
  case object KeepLatestFileVersions extends CleanPolicy("KEEP_LATEST_FILE_VERSIONS")
  case object KeepLatestByHours extends CleanPolicy("KEEP_LATEST_BY_HOURS")

  val All: Seq[CleanPolicy] = Seq(KeepLatestCommits, KeepLatestFileVersions, KeepLatestByHours)
}

/** A clean's policy and its retention figures, from the write options. */
final case class CleanConfig(
    policy: CleanPolicy,
    commitsRetained: Int = 10,
    fileVersionsRetained: Int = 3,
    hoursRetained: Int = 24)

object CleanConfig {
  def from(options: Map[String, String]): CleanConfig = CleanConfig(
    WriteConfig.CleanPolicy.from(options).get,
    WriteConfig.CleanCommitsRetained.from(options).get,
    WriteConfig.CleanFileVersionsRetained.from(options).get,
    WriteConfig.CleanHoursRetained.from(options).get)
}
