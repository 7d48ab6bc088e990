// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, DataOutputStream}
import java.io.{ObjectInputStream, ObjectOutputStream}
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets.UTF_8
import java.util.{Base64, UUID}

import org.apache.hadoop.util.bloom.{BloomFilter => HadoopBloom, DynamicBloomFilter => HadoopDynamic}
import org.apache.hadoop.util.bloom.{Filter, Key}
import org.apache.hadoop.util.hash.Hash
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.{CorruptFileException, ErrorId, InvalidTableException, PyhudiException}

class BloomFilterSuite extends AnyFunSuite {

  private def keys(n: Int, prefix: String = "key-"): Seq[String] = (0 until n).map(i => s"$prefix$i")

  /** The serialized header: (nbHash, hashType, vectorSize), after the version -1. */
  private def header(serialized: String): (Int, Int, Int) = {
    val b = ByteBuffer.wrap(Base64.getDecoder.decode(serialized))
    assert(b.getInt() == -1)
    (b.getInt(), b.get().toInt, b.getInt())
  }

  /** DYNAMIC_V0 fields after the header: (keys per row, keys in the last row, rows). */
  private def dynamicFields(serialized: String): (Int, Int, Int) = {
    val b = ByteBuffer.wrap(Base64.getDecoder.decode(serialized)).position(13)
    (b.getInt(), b.getInt(), b.getInt())
  }

  /** Hadoop's own filters lay out bytes as Hudi's do (Hudi's started as a copy of them). */
  private def hadoopSerialize(filter: Filter, keys: Seq[String]): String = {
    keys.foreach(k => filter.add(new Key(k.getBytes(UTF_8))))
    val bytes = new ByteArrayOutputStream()
    filter.write(new DataOutputStream(bytes))
    Base64.getEncoder.encodeToString(bytes.toByteArray)
  }

  test("default sizing: 2,587,966 bits and 30 hashes; 431,380 Base64 characters when dynamic") {
    val dynamic = BloomFilter.dynamic(BloomFilter.DefaultNumEntries, BloomFilter.DefaultFpp,
      BloomFilter.DefaultMaxEntries).serialize()
    assert(header(dynamic) == ((30, 1, 2587966)))
    assert(dynamicFields(dynamic) == ((60000, 0, 1)))
    assert(dynamic.length == 431380)
    val simple = BloomFilter.simple(BloomFilter.DefaultNumEntries, BloomFilter.DefaultFpp).serialize()
    assert(header(simple) == ((30, 1, 2587966)))
    assert(Base64.getDecoder.decode(simple).length == 13 + (2587966 + 7) / 8)
  }

  test("SIMPLE: keys test positive, others negative, and the bytes are Hadoop's") {
    val filter = BloomFilter.simple(1000, 1e-6)
    val added = keys(1000) ++ Seq("id:1,name:Alice", "日本語キー", "é")
    added.foreach(filter.add)
    assert(added.forall(filter.mightContain))
    assert(!(1 to 2000).map(_ => UUID.randomUUID().toString).exists(filter.mightContain))
    val (k, _, m) = header(filter.serialize())
    assert(filter.serialize() == hadoopSerialize(new HadoopBloom(m, k, Hash.MURMUR_HASH), added))
  }

  test("SIMPLE round trip, with and without a type code") {
    val filter = BloomFilter.simple(500, 1e-4)
    keys(500).foreach(filter.add)
    for (code <- Seq(None, Some("SIMPLE"))) {
      val back = BloomFilter.deserialize(filter.serialize(), code)
      assert(back.typeCode == "SIMPLE")
      assert(back.serialize() == filter.serialize())
      assert(keys(500).forall(back.mightContain))
    }
  }

  test("DYNAMIC_V0 grows a row per numEntries keys, byte-identical to Hadoop's dynamic filter") {
    val filter = BloomFilter.dynamic(100, 1e-3, 1000)
    val added = keys(250)
    added.foreach(filter.add)
    val serialized = filter.serialize()
    assert(dynamicFields(serialized) == ((100, 50, 3)))
    assert(added.forall(filter.mightContain))
    val (k, _, m) = header(serialized)
    assert(serialized == hadoopSerialize(new HadoopDynamic(m, k, Hash.MURMUR_HASH, 100), added))

    val back = BloomFilter.deserialize(serialized, Some("DYNAMIC_V0"))
    assert(back.typeCode == "DYNAMIC_V0")
    assert(back.serialize() == serialized)
    assert(added.forall(back.mightContain))
    assert(keys(2000, "other-").count(back.mightContain) < 20)
  }

  test("DYNAMIC_V0 stops adding rows once they hold maxEntries, and keeps every key") {
    val filter = BloomFilter.dynamic(100, 1e-3, 250)
    keys(1000).foreach(filter.add)
    // rows of 100 keys: the third row brings capacity to 300 >= 250, so no fourth row appears
    assert(dynamicFields(filter.serialize())._3 == 3)
    assert(keys(1000).forall(filter.mightContain))
  }

  test("addAll builds the filter many add calls build, across dynamic rows and their round-robin reuse") {
    def both(make: () => BloomFilter, added: Seq[String], batch: Int): Unit = {
      val one = make()
      added.foreach(one.add)
      val batched = make()
      added.map(_.getBytes(UTF_8)).grouped(batch).foreach(g => batched.addAll(g.toArray ++ Array.fill(2)(null), g.size))
      assert(batched.serialize() == one.serialize(), s"batches of $batch")
    }
    // Keys of one length (four at a time) and of mixed lengths; more keys than maxEntries.
    val fixed = (0 until 1000).map(i => f"key-$i%06d")
    for (batch <- Seq(1, 3, 4, 16, 1000)) {
      both(() => BloomFilter.simple(300, 1e-3), keys(700), batch)
      both(() => BloomFilter.dynamic(100, 1e-3, 250), fixed, batch)
      both(() => BloomFilter.dynamic(100, 1e-3, 1000), keys(250) ++ fixed.take(77), batch)
    }
    val empty =
      intercept[PyhudiException](BloomFilter.simple(10, 1e-3).addAll(Array("a".getBytes(UTF_8), Array.empty[Byte]), 2))
    assert(empty.error == ErrorId.InternalError)
  }

  test("filters survive Java serialization, as in a Spark task") {
    for (filter <- Seq(BloomFilter.simple(100, 1e-3), BloomFilter.dynamic(100, 1e-3, 1000))) {
      keys(150).foreach(filter.add)
      val bytes = new ByteArrayOutputStream()
      val out = new ObjectOutputStream(bytes)
      out.writeObject(filter)
      out.close()
      val copy = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray)).readObject()
        .asInstanceOf[BloomFilter]
      assert(copy.serialize() == filter.serialize())
      copy.add("after")
      assert(copy.mightContain("after") && keys(150).forall(copy.mightContain))
    }
  }

  test("empty keys cannot be added and are never contained") {
    val filter = BloomFilter.simple(10, 1e-3)
    assert(intercept[PyhudiException](filter.add("")).error == ErrorId.InternalError)
    assert(!filter.mightContain(""))
  }

  test("bad input fails with a clear error") {
    val good = BloomFilter.simple(10, 1e-3).serialize()
    val unknown = intercept[InvalidTableException](BloomFilter.deserialize(good, Some("BOGUS")))
    assert(unknown.getMessage.contains("'BOGUS'"))
    assert(intercept[CorruptFileException](BloomFilter.deserialize("@@@", None)).getMessage
        .contains("not Base64"))
    val truncated = Base64.getEncoder.encodeToString(Base64.getDecoder.decode(good).dropRight(1))
    assert(intercept[CorruptFileException](BloomFilter.deserialize(truncated, None)).getMessage
        .contains("bytes left"))
    // a SIMPLE filter read as DYNAMIC_V0 runs out of bytes
    intercept[CorruptFileException](BloomFilter.deserialize(good, Some("DYNAMIC_V0")))
    assert(intercept[PyhudiException](BloomFilter.simple(0, 1e-3)).error == ErrorId.InternalError)
    assert(intercept[PyhudiException](BloomFilter.simple(10, 1.5)).error == ErrorId.InternalError)
  }
}
