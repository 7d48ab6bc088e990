// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

import java.nio.charset.StandardCharsets.UTF_8

import scala.util.Random

import org.apache.hadoop.util.hash.MurmurHash
import org.scalatest.funsuite.AnyFunSuite

/**
 * The expected values were computed from hudi-format.md §5.3 by an independent Python script
 * and agree with Hadoop's `MurmurHash`, which the last test also checks directly.
 */
class HoodieMurmurHashSuite extends AnyFunSuite {

  private def hash(s: String, seed: Int = 0): Int = HoodieMurmurHash.hash(s.getBytes(UTF_8), seed)

  /** The reference C MurmurHash2 tail: last byte gets the largest shift. Not what Hudi does. */
  private def referenceTailHash(data: Array[Byte], seed: Int): Int = {
    val m = 0x5bd1e995
    var h = seed ^ data.length
    val full = data.length & ~3
    for (at <- 0 until full by 4) {
      var k = (data(at) & 0xff) | (data(at + 1) & 0xff) << 8 | (data(at + 2) & 0xff) << 16 |
        (data(at + 3) & 0xff) << 24
      k *= m; k ^= k >>> 24; k *= m; h *= m; h ^= k
    }
    val tail = data.length - full
    if (tail >= 3) h ^= data(full + 2) << 16
    if (tail >= 2) h ^= data(full + 1) << 8
    if (tail >= 1) { h ^= data(full); h *= m }
    h ^= h >>> 13; h *= m; h ^ (h >>> 15)
  }

  test("length mod 4 = 0: no tail and no tail multiply") {
    assert(hash("abcd") == 646393889)
    assert(hash("abcd", seed = 42) == 2000215727)
    assert(hash("") == 0)
  }

  test("length mod 4 = 1") {
    assert(hash("a") == -1838653602)
    assert(hash("abcde") == 1594468574)
    assert(hash("abcde", seed = 42) == -1407689817)
  }

  test("length mod 4 = 2: tail mixed in reverse order") {
    assert(hash("abcdef") == -1641135381)
    assert(hash("abcdef", seed = 42) == 543106407)
    assert(referenceTailHash("abcdef".getBytes(UTF_8), 0) == 1271458169)
  }

  test("length mod 4 = 3: tail mixed in reverse order") {
    assert(hash("abcdefg") == -14544559)
    assert(hash("abcdefg", seed = 42) == -2121759417)
    assert(referenceTailHash("abcdefg".getBytes(UTF_8), 0) == -106836237)
  }

  test("id:1,name:Alice, the complex key the reference tail gets wrong") {
    assert(hash("id:1,name:Alice") == 71696166)
    assert(referenceTailHash("id:1,name:Alice".getBytes(UTF_8), 0) == 297562276)
  }

  test("non-ASCII keys: tail bytes are sign-extended") {
    assert("é".getBytes(UTF_8).toSeq == Seq(0xc3.toByte, 0xa9.toByte))
    assert(hash("é") == -384040333)
    assert(hash("日本語キー") == -2105071645) // 15 bytes, a 3-byte tail of negative bytes
    assert(hash("日本語キー", seed = 42) == 1230209443)
  }

  test("an offset and length hash the same bytes as a copy of them") {
    val bytes = "xxid:1,name:Alicexx".getBytes(UTF_8)
    assert(HoodieMurmurHash.hash(bytes, 2, 15, 0) == hash("id:1,name:Alice"))
  }

  test("agrees with Hadoop's MurmurHash on random bytes of every tail length") {
    val hadoop = MurmurHash.getInstance()
    val random = new Random(7)
    for (len <- 1 to 40; _ <- 1 to 25) {
      val bytes = Array.fill(len)(random.nextInt(256).toByte)
      val seed = random.nextInt()
      assert(HoodieMurmurHash.hash(bytes, seed) == hadoop.hash(bytes, len, seed), s"len $len")
    }
  }

  test("chained: the bit positions of hashes seeded one by the other, as a loop over hash computes them") {
    val random = new Random(11)
    val moduli = Seq(1, 2, 3, 7, 64, 431328, 2875518, 1 << 30, Int.MaxValue - 1, Int.MaxValue) ++
      Seq.fill(20)(1 + random.nextInt(Int.MaxValue))
    for (len <- 0 to 41; modulus <- moduli) {
      val bytes = Array.fill(len)(random.nextInt(256).toByte)
      val n = 1 + random.nextInt(40)
      var h = 0
      val expected = Array.fill(n) { h = HoodieMurmurHash.hash(bytes, h); math.abs(h % modulus) }
      val out = new Array[Int](n)
      HoodieMurmurHash.chained(bytes, n, modulus, out)
      assert(out.sameElements(expected), s"len $len modulus $modulus")
    }
  }

  test("chainedAll: every key's positions as chained gives them, for runs of equal and of mixed lengths") {
    val random = new Random(17)
    // Runs of equal lengths (the four-at-a-time path), lone lengths and partial runs at the end.
    val lengths = Seq.fill(8)(17) ++ Seq(3, 4, 5) ++ Seq.fill(5)(8) ++ Seq(17, 17, 17) ++
      Seq.fill(4)(1) ++ Seq.fill(4)(0) ++ Seq.fill(6)(23) ++ Seq.fill(40)(1 + random.nextInt(3))
    for (modulus <- Seq(1, 7, 2587966, Int.MaxValue); n <- Seq(1, 3, 30); count <- Seq(0, 1, 4, 5, lengths.size)) {
      val keys = lengths.take(count).map(len => Array.fill(len)(random.nextInt(256).toByte)).toArray
      val out = Array.fill(count * n + 3)(-7)
      HoodieMurmurHash.chainedAll(keys, count, n, modulus, out)
      keys.zipWithIndex.foreach { case (k, q) =>
        val expected = new Array[Int](n)
        HoodieMurmurHash.chained(k, n, modulus, expected)
        assert(out.slice(q * n, (q + 1) * n).sameElements(expected),
          s"key $q (${k.length} bytes) modulus $modulus n $n")
      }
      assert(out.drop(count * n).forall(_ == -7), "written past the keys' positions")
    }
  }

  test("Modulus: abs(h % d) over the whole range of h, the extremes included") {
    val random = new Random(13)
    val hs = Seq(0, 1, -1, Int.MaxValue, Int.MinValue, Int.MinValue + 1) ++ Seq.fill(2000)(random.nextInt())
    for (d <- Seq(1, 2, 3, 10, 431328, Int.MaxValue) ++ Seq.fill(50)(1 + random.nextInt(Int.MaxValue))) {
      val m = new HoodieMurmurHash.Modulus(d)
      hs.foreach(h => assert(m.ofAbs(h) == math.abs(h % d), s"h $h d $d"))
    }
  }
}
