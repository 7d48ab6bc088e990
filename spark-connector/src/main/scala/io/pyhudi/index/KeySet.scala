// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.keygen.KeyHash

/**
 * Record keys to test stored keys against when most stored keys are not among them: a bloom
 * index's positives for one base file, against every key the file holds. A hash set alone
 * waits on memory for each stored key (its table and nodes are spread over the heap); a bitset
 * of the keys' hashes, 16 bits per key so that it stays in cache, turns most stored keys away
 * first.
 *
 * @param keys owned by the set (not buffers a reader reuses)
 */
final class KeySet(keys: java.util.Collection[UTF8String]) {
  private val set = new java.util.HashSet[UTF8String](keys)
  private val shift = {
    val bits = Integer.highestOneBit(math.max(64, math.min(set.size, 1 << 26) * 16 - 1)) << 1
    32 - Integer.numberOfTrailingZeros(bits)
  }
  private val present = new Array[Long]((1 << (32 - shift)) >>> 6)
  set.forEach { k =>
    val b = bit(KeyHash.of(k))
    present(b >>> 6) |= 1L << b
  }

  def size: Int = set.size

  def isEmpty: Boolean = set.isEmpty

  def contains(key: UTF8String): Boolean = {
    val b = bit(KeyHash.of(key))
    (present(b >>> 6) & (1L << b)) != 0 && set.contains(key)
  }

  /** The hash cut to the bitset's size. */
  private def bit(h: Long): Int = ((h * 0x9e3779b97f4a7c15L) >>> 32).toInt >>> shift
}
