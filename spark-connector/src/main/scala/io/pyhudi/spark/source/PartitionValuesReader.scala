// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.hadoop.conf.Configuration
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.sources.Filter
import org.apache.spark.sql.types.StructType
import org.apache.spark.sql.vectorized.{ColumnVector, ColumnarBatch}

import io.pyhudi.read.PartitionValues
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.spark.shims.ParquetReaderShim.FileReader

/**
 * Reads base files in columnar batches of `schema`, taking the partition columns a file's footer
 * proves constant ([[PartitionValues]]) as constant vectors instead of decoding them row by row;
 * other files, and splits shorter than `minBytes`, go to `reader`, which reads every column.
 *
 * @param constantReader reads `schema` without `constants`, then `constants` as constant columns
 * @param order          for each column of `schema`, its position in `constantReader`'s batches
 * @param minBytes       the footer read costs about a millisecond (Hudi's bloom filter is most of
 *                       a footer), which decoding the column of a few thousand rows does not
 *                       repay: a scan of 400 files of 2,500 rows each took a third longer
 */
final class PartitionValuesReader private (
    reader: FileReader,
    constantReader: FileReader,
    constants: StructType,
    order: Array[Int],
    minBytes: Long) extends Serializable {

  /** Batches of `path`'s byte range; `onConstants` runs when the constant columns were not read. */
  def batches(conf: Configuration, path: String, start: Long, length: Long, size: Long,
      onConstants: () => Unit): Iterator[ColumnarBatch] =
    (if (length >= minBytes) PartitionValues.read(conf, path, constants) else None) match {
      case Some(values) =>
        onConstants()
        constantReader(ParquetReaderShim.partitionedFile(path, start, length, size, values))
          .asInstanceOf[Iterator[ColumnarBatch]].map { b =>
            new ColumnarBatch(order.map(b.column): Array[ColumnVector], b.numRows)
          }
      case None =>
        reader(ParquetReaderShim.partitionedFile(path, start, length, size)).asInstanceOf[Iterator[ColumnarBatch]]
    }
}

object PartitionValuesReader {

  /**
   * A reader of `schema` that skips decoding the `candidates` it holds when a file allows, with
   * `reader` (built for `schema`) as its fallback; None when `schema` holds none of them.
   */
  def build(spark: SparkSession, tableSchema: StructType, schema: StructType, candidates: Seq[String],
      filters: Seq[Filter], conf: Configuration, reader: FileReader, minBytes: Long): Option[PartitionValuesReader] = {
    val constants = StructType(schema.filter(f => candidates.contains(f.name) && PartitionValues.supports(f.dataType)))
    if (constants.isEmpty) None
    else {
      val read = StructType(schema.filterNot(f => constants.fieldNames.contains(f.name)))
      val returned = read.fieldNames ++ constants.fieldNames
      val order = schema.fieldNames.map(returned.indexOf(_))
      // parquet-mr's page index filter reads a column outside the projection as all null, so a
      // filter on a constant column would drop every row; Spark applies it after the scan anyway.
      val pushed = filters.filterNot(_.references.exists(constants.fieldNames.contains))
      val constantReader = ParquetReaderShim.buildReader(spark, tableSchema, read, pushed, returningBatch = true,
        conf, constants)
      Some(new PartitionValuesReader(reader, constantReader, constants, order, minBytes))
    }
  }
}
