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
      h *= M
      h ^= mixedChunk(data, offset + (i << 2))
      i += 1
    }
    // The multiply happens only when there is a tail, as in the files Hudi wrote.
    if ((length & 3) != 0) {
      h ^= tailBits(data, offset + length, length & 3)
      h *= M
    }
    finish(h)
  }

  /** The 4 bytes at `at`, little-endian, mixed: what a chunk adds, whatever the seed. */
  private def mixedChunk(data: Array[Byte], at: Int): Int = {
    var k = (data(at) & 0xff) | (data(at + 1) & 0xff) << 8 | (data(at + 2) & 0xff) << 16 |
      (data(at + 3) & 0xff) << 24
    k *= M
    k ^= k >>> 24
    k * M
  }

  /**
   * The `tail` (1-3) bytes before `end`, last byte lowest. Bytes stay signed on purpose (Java
   * promotes a byte to int with sign extension): that is what Hudi's files were written with.
   */
  private def tailBits(data: Array[Byte], end: Int, tail: Int): Int = {
    var t = data(end - 1).toInt
    if (tail >= 2) t ^= data(end - 2) << 8
    if (tail >= 3) t ^= data(end - 3) << 16
    t
  }

  private def finish(hash: Int): Int = {
    var h = hash
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
    // A while loop: Array.tabulate boxes every element of an Array[Int].
    val mixed = new Array[Int](chunks)
    var c = 0
    while (c < chunks) {
      mixed(c) = mixedChunk(data, c << 2)
      c += 1
    }
    val tail = length & 3
    val tailed = if (tail != 0) tailBits(data, length, tail) else 0
    val mod = new Modulus(modulus)
    var h = 0
    var j = 0
    while (j < n) {
      h ^= length
      var i = 0
      while (i < chunks) {
        h *= M
        h ^= mixed(i)
        i += 1
      }
      if (tail != 0) {
        h ^= tailed
        h *= M
      }
      h = finish(h)
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
