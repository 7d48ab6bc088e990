// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.util.HadoopInputFile

import io.pyhudi.errors.{Errors, PyhudiException}

/**
 * What Hudi's bloom index reads from a base file's parquet footer (hudi-format.md §5.2). Files
 * written with `hoodie.populate.meta.fields=false` have none of it.
 */
final case class FooterKeys(bloom: Option[BloomFilter], minKey: Option[String], maxKey: Option[String])

/** The index keys of a base file's parquet footer key-value metadata: reading and writing. */
object BaseFileFooter {

  /** The serialized bloom filter (standard Base64). */
  val BloomFilterKey = "org.apache.hudi.bloomfilter"

  /** Where files from before Hudi's move to Apache keep the filter; read, never written. */
  val LegacyBloomFilterKey = "com.uber.hoodie.bloomfilter"

  /** `DYNAMIC_V0` for dynamic filters; absent for SIMPLE ones. */
  val BloomFilterTypeCodeKey = "hoodie_bloom_filter_type_code"

  /** Smallest record key in the file, in `String.compareTo` order. */
  val MinRecordKeyKey = "hoodie_min_record_key"

  /** Largest record key in the file. */
  val MaxRecordKeyKey = "hoodie_max_record_key"

  /** Reads the footer of the parquet file at `path`, skipping its row group metadata. */
  def read(conf: Configuration, path: String): FooterKeys = keys(keyValues(conf, path), s"the footer of $path")

  /** The key range of the footer at `path`, without decoding its bloom filter (a megabyte at Hudi's defaults). */
  def readRange(conf: Configuration, path: String): (Option[String], Option[String]) = {
    val metadata = keyValues(conf, path)
    (metadata.get(MinRecordKeyKey), metadata.get(MaxRecordKeyKey))
  }

  private def keyValues(conf: Configuration, path: String): Map[String, String] = {
    val options = HadoopReadOptions.builder(conf)
      .withMetadataFilter(ParquetMetadataConverter.SKIP_ROW_GROUPS).build()
    val metadata =
      try {
        val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path), conf), options)
        try reader.getFooter.getFileMetaData.getKeyValueMetaData.asScala.toMap
        finally reader.close()
      } catch {
        // parquet-mr reports a bad footer (e.g. "is not a Parquet file") as a RuntimeException.
        case e: RuntimeException if !e.isInstanceOf[PyhudiException] =>
          throw Errors.corruptFile(path, s"cannot read the parquet footer: ${e.getMessage}", e)
      }
    metadata
  }

  /** The index keys among a footer's key-value metadata; `where` names the file in errors. */
  def keys(metadata: Map[String, String], where: String): FooterKeys = {
    val bloom = metadata.get(BloomFilterKey).orElse(metadata.get(LegacyBloomFilterKey))
      .map(BloomFilter.deserialize(_, metadata.get(BloomFilterTypeCodeKey), where))
    FooterKeys(bloom, metadata.get(MinRecordKeyKey), metadata.get(MaxRecordKeyKey))
  }

  /**
   * The footer entries a writer adds for a base file holding at least one record: the filter,
   * its type code only when dynamic (Hudi reads an absent type code as SIMPLE), and the key range.
   */
  def metadata(bloom: BloomFilter, minKey: String, maxKey: String): Map[String, String] = {
    val typeCode =
      if (bloom.typeCode == BloomFilter.SimpleTypeCode) Map.empty[String, String]
      else Map(BloomFilterTypeCodeKey -> bloom.typeCode)
    Map(BloomFilterKey -> bloom.serialize(), MinRecordKeyKey -> minKey, MaxRecordKeyKey -> maxKey) ++
      typeCode
  }
}
