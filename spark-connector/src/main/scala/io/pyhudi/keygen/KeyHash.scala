// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import org.apache.spark.unsafe.Platform
import org.apache.spark.unsafe.types.UTF8String

/**
 * A cheap 64-bit hash of a record key's UTF-8 bytes, read 8 bytes at a time, for the in-memory
 * key lookups of merges and index probes (never written anywhere: Hudi's own hashes of keys,
 * for bloom filters and buckets, are elsewhere).
 */
object KeyHash {

  def of(key: UTF8String): Long = of(key.getBaseObject, key.getBaseOffset, key.numBytes)

  /** The hash of `n` bytes at `offset` of `base` (a byte array, or null for off-heap memory). */
  def of(base: AnyRef, offset: Long, n: Int): Long = {
    var h = (prefix(base, offset, n) ^ n) * 0xff51afd7ed558ccdL
    var i = 8
    while (i + 8 <= n) {
      h = (h ^ Platform.getLong(base, offset + i)) * 0xc4ceb9fe1a85ec53L
      i += 8
    }
    while (i < n) {
      h = (h ^ Platform.getByte(base, offset + i)) * 0xc4ceb9fe1a85ec53L
      i += 1
    }
    h ^ (h >>> 29)
  }

  /** The first 8 bytes as UTF8String.getPrefix reads them (fewer, zero-padded, for a short key). */
  private def prefix(base: AnyRef, offset: Long, n: Int): Long =
    if (n >= 8) Platform.getLong(base, offset)
    else {
      var p = 0L
      var i = 0
      while (i < n) {
        p |= (Platform.getByte(base, offset + i) & 0xffL) << (8 * i)
        i += 1
      }
      p
    }
}
