// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

/**
 * A bitset of record keys' [[KeyHash]]es, 16 bits per key so that it stays in cache: when most
 * keys looked up are not in a set, it turns them away without reaching into the set's table,
 * which waits on memory. [[mayHold]] false means no key added has that hash.
 *
 * @param keys how many keys will be added (sizes the bitset)
 */
final class KeyHashBits(keys: Int) {
  private val shift = {
    val bits = Integer.highestOneBit(math.max(64, math.min(keys, 1 << 26) * 16 - 1)) << 1
    32 - Integer.numberOfTrailingZeros(bits)
  }
  private val words = new Array[Long]((1 << (32 - shift)) >>> 6)

  def add(hash: Long): Unit = {
    val b = bit(hash)
    words(b >>> 6) |= 1L << b
  }

  def mayHold(hash: Long): Boolean = {
    val b = bit(hash)
    (words(b >>> 6) & (1L << b)) != 0
  }

  /** The hash cut to the bitset's size. */
  private def bit(h: Long): Int = ((h * 0x9e3779b97f4a7c15L) >>> 32).toInt >>> shift
}
