// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

import java.io.File
import java.util.UUID

import scala.collection.mutable.ArrayBuffer
import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.Group
import org.apache.parquet.hadoop.{ParquetFileReader, ParquetReader}
import org.apache.parquet.hadoop.api.ReadSupport
import org.apache.parquet.hadoop.example.GroupReadSupport
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.Corpus

/** The footers of every base file that Apache Hudi 0.14 wrote in the v6 test tables. */
class BaseFileFooterCorpusSuite extends AnyFunSuite {

  private val conf = new Configuration()

  private val baseFiles: Seq[(String, File)] =
    (Corpus.tables("cow") ++ Corpus.tables("mor")).flatMap { table =>
      Corpus.filesUnder(Corpus.extract(table), _.endsWith(".parquet")).map(table -> _)
    }

  private def withoutMetaFields(table: String): Boolean = table.endsWith("_no_metafields")

  /** The `_hoodie_record_key` column of a file, read alone. */
  private def recordKeys(file: File): Seq[String] = {
    val projection = new Configuration(conf)
    projection.set(ReadSupport.PARQUET_READ_SCHEMA,
      "message keys { optional binary _hoodie_record_key (STRING); }")
    val reader = ParquetReader.builder(new GroupReadSupport(), new Path(file.getPath))
      .withConf(projection).build()
    try {
      val out = ArrayBuffer.empty[String]
      var row: Group = reader.read()
      while (row != null) { out += row.getString("_hoodie_record_key", 0); row = reader.read() }
      out.toSeq
    } finally reader.close()
  }

  test("the corpus has 45 base files, 39 of them with Hudi meta fields") {
    assert(baseFiles.size == 45)
    assert(baseFiles.count { case (t, _) => !withoutMetaFields(t) } == 39)
  }

  test("files written without meta fields have no bloom filter and no key range") {
    for ((table, file) <- baseFiles if withoutMetaFields(table))
      assert(BaseFileFooter.read(conf, file.getPath) == FooterKeys(None, None, None), file)
  }

  test("every bloom filter holds its file's keys, rejects random UUIDs and re-encodes exactly") {
    var reproduced = 0
    for ((table, file) <- baseFiles if !withoutMetaFields(table)) {
      val footer = BaseFileFooter.read(conf, file.getPath)
      val bloom = footer.bloom.getOrElse(fail(s"$file has no bloom filter"))
      val keys = recordKeys(file)
      assert(keys.nonEmpty, file)
      assert(keys.forall(bloom.mightContain), file)
      assert(!(1 to 2000).map(_ => UUID.randomUUID().toString).exists(bloom.mightContain), file)
      assert(footer.minKey.contains(keys.min) && footer.maxKey.contains(keys.max), file)

      val fresh = bloom.typeCode match {
        case "DYNAMIC_V0" => BloomFilter.dynamic(BloomFilter.DefaultNumEntries, BloomFilter.DefaultFpp,
            BloomFilter.DefaultMaxEntries)
        case _ => BloomFilter.simple(BloomFilter.DefaultNumEntries, BloomFilter.DefaultFpp)
      }
      keys.foreach(fresh.add)
      val written = BaseFileFooter.metadata(fresh, keys.min, keys.max)
      assert(written == rawFooter(file).filter { case (k, _) => written.contains(k) }, file)
      assert(written(BaseFileFooter.BloomFilterKey) == bloom.serialize(), file)
      reproduced += 1
    }
    info(s"$reproduced footers reproduced byte-identically")
    assert(reproduced == 39)
  }

  test("complex-key filters hold id:1,name:Alice, whose 3-byte tail needs Hudi's tail order") {
    val withAlice = baseFiles.filter(_._1.contains("complexkeygen")).map(_._2)
      .filter(f => recordKeys(f).contains("id:1,name:Alice"))
    assert(withAlice.nonEmpty)
    for (file <- withAlice)
      assert(BaseFileFooter.read(conf, file.getPath).bloom.exists(_.mightContain("id:1,name:Alice")), file)
  }

  private def rawFooter(file: File): Map[String, String] = {
    val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(file.getPath), conf))
    try reader.getFooter.getFileMetaData.getKeyValueMetaData.asScala.toMap
    finally reader.close()
  }
}
