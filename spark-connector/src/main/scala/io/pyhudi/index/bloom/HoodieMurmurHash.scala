// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

/**
 * The 32-bit MurmurHash 2 variant that Apache Hudi's bloom filters use (hudi-format.md §5.3).
 * It differs from the reference C MurmurHash2 in the tail: the tail bytes are sign-extended and
 * mixed in reverse order (the first remaining byte gets the largest shift). Bloom filters that
 * Hudi must read have to hash exactly like this, so this is not interchangeable with other
 * Murmur ports.
 */
object HoodieMurmurHash {

  private val M = 0x5bd1e995

  /** Hash of all of `data` with the given seed. */
  def hash(data: Array[Byte], seed: Int): Int = hash(data, 0, data.length, seed)

  /** Hash of `length` bytes of `data` starting at `offset`, with the given seed. */
  def hash(data: Array[Byte], offset: Int, length: Int, seed: Int): Int = {
    var h = seed ^ length
    val chunks = length >> 2
    var i = 0
    while (i < chunks) {
      val at = offset + (i << 2)
      var k = (data(at) & 0xff) | (data(at + 1) & 0xff) << 8 | (data(at + 2) & 0xff) << 16 |
        (data(at + 3) & 0xff) << 24
      k *= M
      k ^= k >>> 24
      k *= M
      h *= M
      h ^= k
      i += 1
    }
    val end = offset + length
    val tail = length & 3
    // Bytes stay signed on purpose (Java promotes a byte to int with sign extension), and the
    // multiply happens only when there is a tail: both are what Hudi's files were written with.
    if (tail != 0) {
      if (tail >= 3) h ^= data(end - 3) << 16
      if (tail >= 2) h ^= data(end - 2) << 8
      h ^= data(end - 1)
      h *= M
    }
    h ^= h >>> 13
    h *= M
    h ^ (h >>> 15)
  }
}
