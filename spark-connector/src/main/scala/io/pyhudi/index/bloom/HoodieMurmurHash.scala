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
  def chained(data: Array[Byte], n: Int, modulus: Int, out: Array[Int]): Unit =
    chainedInto(data, n, new Modulus(modulus), out, 0)

  private def chainedInto(data: Array[Byte], n: Int, mod: Modulus, out: Array[Int], offset: Int): Unit = {
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
      out(offset + j) = mod.ofAbs(h)
      j += 1
    }
  }

  /**
   * [[chained]] for `count` keys at once: key `q`'s positions go to `out(q * n until (q + 1) * n)`.
   * A key's hashes form one chain, each waiting on the one before, so hashing keys one by one
   * leaves the CPU idle between the steps of a chain. Keys of equal length go four at a time
   * through one loop whose four chains the CPU runs side by side; others go one by one.
   */
  def chainedAll(keys: Array[Array[Byte]], count: Int, n: Int, modulus: Int, out: Array[Int]): Unit = {
    val mod = new Modulus(modulus)
    var q = 0
    while (q < count) {
      val len = keys(q).length
      if (q + 4 <= count && keys(q + 1).length == len && keys(q + 2).length == len && keys(q + 3).length == len) {
        chained4(keys, q, n, mod, out)
        q += 4
      } else {
        chainedInto(keys(q), n, mod, out, q * n)
        q += 1
      }
    }
  }

  private def chained4(keys: Array[Array[Byte]], first: Int, n: Int, mod: Modulus, out: Array[Int]): Unit = {
    val d0 = keys(first)
    val d1 = keys(first + 1)
    val d2 = keys(first + 2)
    val d3 = keys(first + 3)
    val length = d0.length
    val chunks = length >> 2
    // The mixed chunks of the four keys side by side: chunk i of key q at 4 * i + q.
    val mixed = new Array[Int](chunks << 2)
    var c = 0
    while (c < chunks) {
      val at = c << 2
      mixed(at) = mixedChunk(d0, at)
      mixed(at + 1) = mixedChunk(d1, at)
      mixed(at + 2) = mixedChunk(d2, at)
      mixed(at + 3) = mixedChunk(d3, at)
      c += 1
    }
    val tail = length & 3
    val t0 = if (tail != 0) tailBits(d0, length, tail) else 0
    val t1 = if (tail != 0) tailBits(d1, length, tail) else 0
    val t2 = if (tail != 0) tailBits(d2, length, tail) else 0
    val t3 = if (tail != 0) tailBits(d3, length, tail) else 0
    val o0 = first * n
    val o1 = o0 + n
    val o2 = o1 + n
    val o3 = o2 + n
    var h0, h1, h2, h3 = 0
    var j = 0
    while (j < n) {
      h0 ^= length; h1 ^= length; h2 ^= length; h3 ^= length
      var i = 0
      while (i < chunks) {
        val at = i << 2
        h0 = h0 * M ^ mixed(at)
        h1 = h1 * M ^ mixed(at + 1)
        h2 = h2 * M ^ mixed(at + 2)
        h3 = h3 * M ^ mixed(at + 3)
        i += 1
      }
      if (tail != 0) {
        h0 = (h0 ^ t0) * M
        h1 = (h1 ^ t1) * M
        h2 = (h2 ^ t2) * M
        h3 = (h3 ^ t3) * M
      }
      h0 = finish(h0); h1 = finish(h1); h2 = finish(h2); h3 = finish(h3)
      out(o0 + j) = mod.ofAbs(h0)
      out(o1 + j) = mod.ofAbs(h1)
      out(o2 + j) = mod.ofAbs(h2)
      out(o3 + j) = mod.ofAbs(h3)
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
