// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

/**
 * Base file compression of `hoodie.parquet.compression.codec`: Apache Hudi's values, which are
 * also the names of parquet's codecs.
 */
sealed abstract class CompressionCodec(val name: String) extends Serializable {
  override def toString: String = name
}

object CompressionCodec {
  case object Gzip extends CompressionCodec("gzip")
  case object Snappy extends CompressionCodec("snappy")
  case object Zstd extends CompressionCodec("zstd")
  case object Lz4 extends CompressionCodec("lz4")
  case object Uncompressed extends CompressionCodec("uncompressed")

  val All: Seq[CompressionCodec] = Seq(Gzip, Snappy, Zstd, Lz4, Uncompressed)
}
