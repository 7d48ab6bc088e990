// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.read

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.HadoopReadOptions
import org.apache.parquet.column.statistics.Statistics
import org.apache.parquet.format.converter.ParquetMetadataConverter
import org.apache.parquet.hadoop.ParquetFileReader
import org.apache.parquet.hadoop.metadata.{ColumnPath, ParquetMetadata}
import org.apache.parquet.hadoop.util.HadoopInputFile
import org.apache.parquet.io.api.Binary
import org.apache.parquet.schema.LogicalTypeAnnotation.{IntLogicalTypeAnnotation, StringLogicalTypeAnnotation}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types.{DataType, IntegerType, LongType, StringType, StructType}
import org.apache.spark.unsafe.types.UTF8String

import io.pyhudi.errors.Errors

/**
 * The values a base file's partition columns hold in every one of its rows, proven by the
 * parquet footer's column statistics. Hudi keeps the partition field in each data file, and a
 * reader must return the stored value, which can differ from the partition path (a null or
 * empty value, a record a global index kept in its old partition); but a file whose statistics
 * show one value and no nulls can be read without decoding the column, the way Spark reads the
 * partition columns of a plain parquet table from the directory names.
 */
object PartitionValues {

  /** Types whose statistics are the value as Spark holds it (no calendar rebasing, no scale). */
  def supports(dataType: DataType): Boolean = dataType match {
    case StringType | IntegerType | LongType => true
    case _ => false
  }

  /**
   * The value of each of `columns` (top-level, of supported types) in every row of the parquet
   * file at `path`, or None when the footer does not prove each holds one non-null value, or
   * cannot be read (the file's own reader then reports it).
   */
  def read(conf: Configuration, path: String, columns: StructType): Option[InternalRow] = {
    val footer =
      try {
        val options = HadoopReadOptions.builder(conf).withMetadataFilter(ParquetMetadataConverter.NO_FILTER).build()
        val reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(path), conf), options)
        try Some(reader.getFooter)
        finally reader.close()
      } catch { case _: Exception => None }
    footer.flatMap(of(_, columns))
  }

  /** [[read]] of a footer already in memory. */
  def of(footer: ParquetMetadata, columns: StructType): Option[InternalRow] = {
    val blocks = footer.getBlocks.asScala
    if (blocks.isEmpty) None
    else {
      val values = columns.fields.map(f => constant(footer, f.name, f.dataType))
      if (values.forall(_.isDefined)) Some(InternalRow.fromSeq(values.map(_.get).toSeq)) else None
    }
  }

  /** The one value of column `name` across all row groups, as Spark holds a `dataType` value. */
  private def constant(footer: ParquetMetadata, name: String, dataType: DataType): Option[Any] = {
    val path = ColumnPath.get(name)
    val chunks = footer.getBlocks.asScala.map(_.getColumns.asScala.find(_.getPath == path))
    val values = chunks.map {
      case Some(chunk) if matches(chunk.getPrimitiveType, dataType) =>
        val stats: Statistics[_] = chunk.getStatistics
        val single = stats != null && !stats.isEmpty && stats.isNumNullsSet && stats.getNumNulls == 0 &&
          stats.hasNonNullValue && stats.genericGetMin == stats.genericGetMax
        if (single) Some(stats.genericGetMin: Any) else None
      case _ => None
    }
    if (values.forall(_.isDefined) && values.map(_.get).distinct.size == 1) values.head.map(toSpark(_, dataType))
    else None
  }

  private def matches(primitive: org.apache.parquet.schema.PrimitiveType, dataType: DataType): Boolean = {
    val annotation = primitive.getLogicalTypeAnnotation
    (primitive.getPrimitiveTypeName, dataType) match {
      case (PrimitiveTypeName.BINARY, StringType) => annotation.isInstanceOf[StringLogicalTypeAnnotation]
      case (PrimitiveTypeName.INT32, IntegerType) | (PrimitiveTypeName.INT64, LongType) =>
        annotation == null || (annotation match {
          case i: IntLogicalTypeAnnotation => i.isSigned
          case _ => false
        })
      case _ => false
    }
  }

  private def toSpark(value: Any, dataType: DataType): Any = (value, dataType) match {
    case (b: Binary, StringType) => UTF8String.fromBytes(b.getBytes)
    case (i: java.lang.Integer, IntegerType) => i.intValue
    case (l: java.lang.Long, LongType) => l.longValue
    case _ => throw Errors.internal(s"the parquet statistics value $value is not a $dataType")
  }
}
