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

  /**
   * The bit positions of a bloom filter key: `n` hashes of all of `data`, the first seeded with
   * 0 and each next one with the hash before it, each reduced to `abs(h % modulus)` as Hadoop's
   * `HashFunction` does, into `out`. The same values as [[hash]] in a loop, cheaper: mixing a
   * 4-byte chunk does not depend on the seed, so it is done once for all `n` hashes, and the
   * remainder avoids a hardware division ([[Modulus]]). A key costs a write about 30 hashes at
   * Hudi's default false positive rate.
   */
  def chained(data: Array[Byte], n: Int, modulus: Int, out: Array[Int]): Unit = {
    val length = data.length
    val chunks = length >> 2
    val mixed = new Array[Int](chunks)
    var i = 0
    while (i < chunks) {
      val at = i << 2
      var k = (data(at) & 0xff) | (data(at + 1) & 0xff) << 8 | (data(at + 2) & 0xff) << 16 |
        (data(at + 3) & 0xff) << 24
      k *= M
      k ^= k >>> 24
      k *= M
      mixed(i) = k
      i += 1
    }
    val tail = length & 3
    var tailBits = 0
    if (tail >= 3) tailBits ^= data(length - 3) << 16
    if (tail >= 2) tailBits ^= data(length - 2) << 8
    if (tail != 0) tailBits ^= data(length - 1)
    val mod = new Modulus(modulus)
    var h = 0
    var j = 0
    while (j < n) {
      h ^= length
      i = 0
      while (i < chunks) {
        h *= M
        h ^= mixed(i)
        i += 1
      }
      if (tail != 0) {
        h ^= tailBits
        h *= M
      }
      h ^= h >>> 13
      h *= M
      h ^= h >>> 15
      out(j) = mod.ofAbs(h)
      j += 1
    }
  }

  /**
   * `abs(h % d)` for a fixed positive `d` without a division: Lemire's "faster remainder by
   * direct computation" for 32-bit operands, with `c = ceil(2^64 / d)`, on `|h|` (at most 2^31).
   */
  final class Modulus(d: Int) {
    private val c = java.lang.Long.divideUnsigned(-1L, d.toLong) + 1

    def ofAbs(h: Int): Int = {
      val low = c * math.abs(h.toLong)
      // the high 64 bits of the unsigned 128-bit product low * d (d > 0)
      (Math.multiplyHigh(low, d.toLong) + ((low >> 63) & d.toLong)).toInt
    }
  }
}
