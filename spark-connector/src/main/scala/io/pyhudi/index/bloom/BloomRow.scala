// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

import java.io.{DataInputStream, DataOutputStream}
import java.nio.charset.StandardCharsets.UTF_8

import io.pyhudi.errors.Errors

/**
 * One standard bloom filter of `vectorSize` bits and `numHashes` bit positions per key, as Hadoop
 * and Hudi lay it out (hudi-format.md §5.3). A SIMPLE filter is one row; a DYNAMIC_V0 filter is a
 * list of rows. The bits are kept in their serialized layout (bit i in byte i/8 at mask
 * `1 << (i % 8)`), so writing a row is a plain copy.
 */
private[bloom] final class BloomRow private (
    val numHashes: Int, val vectorSize: Int, bits: Array[Byte]) extends Serializable {

  def this(numHashes: Int, vectorSize: Int) =
    this(numHashes, vectorSize, new Array[Byte](BloomRow.numBytes(vectorSize)))

  /**
   * Sets the `count` positions starting at `positions(from)`. While loops: foreach over an
   * Array[Int] boxes every position, and a key has ~30 of them.
   */
  def set(positions: Array[Int], from: Int, count: Int): Unit = {
    var i = from
    val end = from + count
    while (i < end) {
      val p = positions(i)
      bits(p >>> 3) = (bits(p >>> 3) | (1 << (p & 7))).toByte
      i += 1
    }
  }

  def containsAll(positions: Array[Int]): Boolean = {
    var i = 0
    while (i < positions.length) {
      val p = positions(i)
      if ((bits(p >>> 3) & (1 << (p & 7))) == 0) return false
      i += 1
    }
    true
  }

  def write(out: DataOutputStream): Unit = {
    BloomRow.writeHeader(out, numHashes, vectorSize)
    out.write(bits)
  }
}

private[bloom] object BloomRow {

  /** The header's version field; a positive value would be Hadoop's older, Jenkins-only layout. */
  val Version: Int = -1

  /** Hadoop's hash type number for Murmur (0 is Jenkins, which Hudi never writes). */
  val MurmurHashType: Int = 1

  def numBytes(vectorSize: Int): Int = ((vectorSize.toLong + 7) / 8).toInt

  /**
   * The bit positions of a key: each hash is seeded with the previous one, and the signed
   * remainder is made non-negative with `abs`, as Hadoop's `HashFunction` does.
   */
  def positions(key: String, numHashes: Int, vectorSize: Int): Array[Int] = {
    val out = new Array[Int](numHashes)
    HoodieMurmurHash.chained(key.getBytes(UTF_8), numHashes, vectorSize, out)
    out
  }

  def writeHeader(out: DataOutputStream, numHashes: Int, vectorSize: Int): Unit = {
    out.writeInt(Version)
    out.writeInt(numHashes)
    out.writeByte(MurmurHashType)
    out.writeInt(vectorSize)
  }

  /** Reads a header and returns (numHashes, vectorSize); `where` names the filter in errors. */
  def readHeader(in: DataInputStream, where: String): (Int, Int) = {
    val version = in.readInt()
    if (version != Version)
      throw Errors.corruptBloomFilter(where, s"unsupported filter version $version (expected $Version)")
    val numHashes = in.readInt()
    val hashType = in.readByte()
    if (hashType != MurmurHashType)
      throw Errors.corruptBloomFilter(where, s"hash type $hashType is not Murmur ($MurmurHashType)")
    val vectorSize = in.readInt()
    if (numHashes <= 0 || vectorSize <= 0)
      throw Errors.corruptBloomFilter(where, s"bad sizes: $numHashes hashes over $vectorSize bits")
    (numHashes, vectorSize)
  }

  /** Reads a row from an in-memory stream (its `available` must be the bytes left). */
  def read(in: DataInputStream, where: String): BloomRow = {
    val (numHashes, vectorSize) = readHeader(in, where)
    val size = numBytes(vectorSize)
    // Checked before allocating, so that a corrupt size cannot ask for gigabytes.
    if (in.available() < size)
      throw Errors.corruptBloomFilter(where, s"$vectorSize bits announced, ${in.available()} bytes left")
    val bits = new Array[Byte](size)
    in.readFully(bits)
    // Bits past vectorSize in the last byte mean nothing; Java drops them when it reads a filter.
    val used = vectorSize & 7
    if (used != 0) bits(bits.length - 1) = (bits(bits.length - 1) & ((1 << used) - 1)).toByte
    new BloomRow(numHashes, vectorSize, bits)
  }
}
