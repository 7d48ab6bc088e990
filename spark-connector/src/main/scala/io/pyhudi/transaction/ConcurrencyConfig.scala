// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import io.pyhudi.config.WriteConfig

/** Heartbeat policy and commit-lock wait of one writer, from its options. */
final case class ConcurrencyConfig(heartbeat: HeartbeatPolicy, lockWaitMs: Long)

object ConcurrencyConfig {
  val Default: ConcurrencyConfig = ConcurrencyConfig(HeartbeatPolicy.Default, WriteConfig.LockWaitTime.default.get)

  def from(options: Map[String, String]): ConcurrencyConfig =
    ConcurrencyConfig(HeartbeatPolicy.from(options), WriteConfig.LockWaitTime.from(options).get)
}
