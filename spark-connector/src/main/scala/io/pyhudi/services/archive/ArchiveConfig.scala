// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.archive

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.Errors

/** How many completed commits archival keeps (`minCommits`) and lets accumulate (`maxCommits`). */
final case class ArchiveConfig(minCommits: Int = 20, maxCommits: Int = 30)

object ArchiveConfig {

  /**
   * The archival options, checked as Apache Hudi checks them: the minimum must exceed the commits
   * clean retains (else archival would take instants clean and incremental reads still need),
   * and the maximum must exceed the minimum.
   *
   * @throws io.pyhudi.errors.InvalidOptionException when they do not
   */
  def from(options: Map[String, String]): ArchiveConfig = {
    val min = WriteConfig.KeepMinCommits.from(options).get
    val max = WriteConfig.KeepMaxCommits.from(options).get
    val retained = WriteConfig.CleanCommitsRetained.from(options).get
    if (min <= retained)
      throw Errors.invalidOption(WriteConfig.KeepMinCommits.key, min.toString,
        s"must be greater than ${WriteConfig.CleanCommitsRetained.key} ($retained), or archival could take " +
          "commits that clean keeps for time travel and incremental reads")
    if (max <= min)
      throw Errors.invalidOption(WriteConfig.KeepMaxCommits.key, max.toString,
        s"must be greater than ${WriteConfig.KeepMinCommits.key} ($min)")
    ArchiveConfig(min, max)
  }
}
