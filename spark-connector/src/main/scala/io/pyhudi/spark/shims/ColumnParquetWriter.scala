// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.shims

import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.Path
import org.apache.parquet.column.{ColumnDescriptor, ColumnWriteStore, ColumnWriter, ParquetProperties}
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor
import org.apache.parquet.crypto.FileEncryptionProperties
import org.apache.parquet.hadoop.{CodecFactory, ColumnChunkPageWriteStore, ParquetFileWriter, ParquetWriter}
import org.apache.parquet.hadoop.metadata.CompressionCodecName
import org.apache.parquet.io.OutputFile
import org.apache.parquet.io.api.Binary
import org.apache.parquet.schema.{LogicalTypeAnnotation, MessageType, PrimitiveType}
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.Platform

import io.pyhudi.errors.Errors
import io.pyhudi.write.handle.BaseFileWriter

/**
 * A base file of top-level primitive columns, each row's values handed straight to parquet's
 * column writers. Spark's write support goes through parquet's record consumer, which keeps
 * field and level state per value, and boxes each field's ordinal on the way: about a quarter
 * of a load's write samples in the profile (docs/benchmarks, twenty-first round). Values, encodings,
 * statistics, row groups and footer are the same as that path writes: the schema is Spark's
 * conversion, the values follow its write support type for type, and row groups close on the
 * same memory checks as parquet's own record writer.
 */
private[shims] final class ColumnParquetWriter(file: OutputFile, path: Path, conf: Configuration,
    schema: MessageType, kinds: Array[ColumnParquetWriter.Kind], props: ParquetProperties, codec: CompressionCodecName,
    rowGroupSize: Long, extraMetadata: Map[String, String]) extends BaseFileWriter {
  import ColumnParquetWriter._

  private val columns: Array[ColumnDescriptor] = schema.getColumns.asScala.toArray
  private val optional: Array[Boolean] = columns.map(_.getMaxDefinitionLevel > 0)
  private val writers = new Array[ColumnWriter](columns.length)
  // Fixed-length decimals: the big-endian, sign-extended unscaled value, one buffer per column.
  private val fixedBytes: Array[Array[Byte]] =
    columns.map(c =>
      if (c.getPrimitiveType.getPrimitiveTypeName == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
        new Array[Byte](c.getPrimitiveType.getTypeLength)
      else null)

  private val precision: Array[Int] = columns.map(c => decimal(c).map(_.getPrecision).getOrElse(0))
  private val scale: Array[Int] = columns.map(c => decimal(c).map(_.getScale).getOrElse(0))

  private val codecFactory = new CodecFactory(conf, props.getPageSizeThreshold)
  private val compressor: BytesInputCompressor = codecFactory.getCompressor(codec)
  private val fileWriter: ParquetFileWriter = {
    var created: ParquetFileWriter = null
    try {
      created = new ParquetFileWriter(file, schema, ParquetFileWriter.Mode.CREATE, rowGroupSize,
        ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null: FileEncryptionProperties, props)
      created.start()
      created
    } catch {
      case e: Throwable =>
        // No writer reaches the caller, so nothing would release the codecs or remove the file;
        // a file that was there before (CREATE refuses it) is not this writer's to remove.
        codecFactory.release()
        if (created != null) {
          try created.close()
          catch { case _: Exception => () }
          try path.getFileSystem(conf).delete(path, false)
          catch { case _: Exception => () }
        }
        throw e
    }
  }

  private var pageStore: ColumnChunkPageWriteStore = _
  private var store: ColumnWriteStore = _
  private var recordCount = 0L
  private var recordCountForNextMemCheck = props.getMinRowCountForPageSizeCheck.toLong
  private var nextRowGroupSize = rowGroupSize
  private var lastRowGroupEndPos = 0L
  private var closed = false
  openRowGroup()

  private def openRowGroup(): Unit = {
    pageStore = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator,
      props.getColumnIndexTruncateLength, props.getPageWriteChecksumEnabled)
    store = props.newColumnWriteStore(schema, pageStore, pageStore)
    var i = 0
    while (i < columns.length) { writers(i) = store.getColumnWriter(columns(i)); i += 1 }
  }

  override def write(row: InternalRow): Unit = {
    var i = 0
    while (i < kinds.length) {
      val w = writers(i)
      if (row.isNullAt(i)) {
        if (!optional(i)) throw Errors.internal(s"null in required parquet column ${columns(i).getPath.mkString(".")}")
        w.writeNull(0, 0)
      } else {
        val d = if (optional(i)) 1 else 0
        (kinds(i): @scala.annotation.switch) match {
          case Kind.Boolean => w.write(row.getBoolean(i), 0, d)
          case Kind.Byte => w.write(row.getByte(i).toInt, 0, d)
          case Kind.Short => w.write(row.getShort(i).toInt, 0, d)
          case Kind.Int => w.write(row.getInt(i), 0, d)
          case Kind.Long => w.write(row.getLong(i), 0, d)
          case Kind.Float => w.write(row.getFloat(i), 0, d)
          case Kind.Double => w.write(row.getDouble(i), 0, d)
          case Kind.String => w.write(utf8(row, i), 0, d)
          case Kind.Binary => w.write(Binary.fromReusedByteArray(row.getBinary(i)), 0, d)
          case Kind.DecimalInt => w.write(row.getDecimal(i, precision(i), scale(i)).toUnscaledLong.toInt, 0, d)
          case Kind.DecimalLong => w.write(row.getDecimal(i, precision(i), scale(i)).toUnscaledLong, 0, d)
          case Kind.DecimalFixedFromLong => w.write(fixedFromLong(i, row), 0, d)
          case Kind.DecimalFixed => w.write(fixedFromBig(i, row), 0, d)
        }
      }
      i += 1
    }
    store.endRecord()
    recordCount += 1
    if (recordCount >= recordCountForNextMemCheck) checkRowGroupSize()
  }

  // The string's own bytes when it lives in a heap array (an UnsafeRow's, or one made from bytes):
  // parquet copies a reused value wherever it keeps one (dictionary, statistics).
  private def utf8(row: InternalRow, i: Int): Binary = {
    val s = row.getUTF8String(i)
    s.getBaseObject match {
      case bytes: Array[Byte] =>
        Binary.fromReusedByteArray(bytes, (s.getBaseOffset - Platform.BYTE_ARRAY_OFFSET).toInt, s.numBytes)
      case _ => Binary.fromReusedByteArray(s.getBytes)
    }
  }

  private def fixedFromLong(i: Int, row: InternalRow): Binary = {
    val buf = fixedBytes(i)
    val unscaled = row.getDecimal(i, precision(i), scale(i)).toUnscaledLong
    var k = 0
    var shift = 8 * (buf.length - 1)
    while (k < buf.length) { buf(k) = (unscaled >> shift).toByte; k += 1; shift -= 8 }
    Binary.fromReusedByteArray(buf, 0, buf.length)
  }

  private def fixedFromBig(i: Int, row: InternalRow): Binary = {
    val buf = fixedBytes(i)
    val bytes = row.getDecimal(i, precision(i), scale(i)).toJavaBigDecimal.unscaledValue.toByteArray
    if (bytes.length == buf.length) Binary.fromReusedByteArray(bytes)
    else {
      if (bytes.length > buf.length)
        throw Errors.internal(s"decimal of ${bytes.length} bytes in ${columns(i).getPath.mkString(".")} " +
          s"(fixed length ${buf.length})")
      java.util.Arrays.fill(buf, 0, buf.length - bytes.length, (if (bytes(0) < 0) -1 else 0).toByte)
      System.arraycopy(bytes, 0, buf, buf.length - bytes.length, bytes.length)
      Binary.fromReusedByteArray(buf, 0, buf.length)
    }
  }

  // parquet's record writer's rule: measure the buffered bytes now and then, and close the row
  // group when it is within about two records of its size.
  private def checkRowGroupSize(): Unit = {
    val memSize = store.getBufferedSize
    val recordSize = memSize / recordCount
    val minCheck = props.getMinRowCountForPageSizeCheck.toLong
    val maxCheck = props.getMaxRowCountForPageSizeCheck.toLong
    if (memSize > nextRowGroupSize - 2 * recordSize) {
      val written = recordCount
      flushRowGroup()
      openRowGroup()
      recordCountForNextMemCheck = math.min(math.max(minCheck, written / 2), maxCheck)
      lastRowGroupEndPos = fileWriter.getPos
    } else {
      recordCountForNextMemCheck = math.min(
        math.max(minCheck, (recordCount + (nextRowGroupSize / recordSize.toFloat).toLong) / 2),
        recordCount + maxCheck)
    }
  }

  private def flushRowGroup(): Unit = {
    try {
      if (recordCount > 0) {
        fileWriter.startBlock(recordCount)
        store.flush()
        pageStore.flushToFileWriter(fileWriter)
        recordCount = 0
        fileWriter.endBlock()
        nextRowGroupSize = math.min(fileWriter.getNextRowGroupSize, rowGroupSize)
      }
    } finally {
      store.close()
      pageStore.close()
    }
  }

  override def dataSize: Long = lastRowGroupEndPos + store.getBufferedSize

  override def close(footer: Map[String, String]): Long = {
    closed = true
    try {
      flushRowGroup()
      fileWriter.end((extraMetadata ++ footer).asJava)
    } finally codecFactory.release()
    path.getFileSystem(conf).getFileStatus(path).getLen
  }

  override def abort(): Unit = {
    if (!closed) {
      closed = true
      try { store.close(); pageStore.close() }
      catch { case _: Exception => () }
      try fileWriter.close()
      catch { case _: Exception => () }
      codecFactory.release()
    }
    try path.getFileSystem(conf).delete(path, false)
    catch { case _: Exception => () }
  }
}

private[shims] object ColumnParquetWriter {

  /** How a column's values go from a row to parquet; one per top-level column. */
  type Kind = Int
  object Kind {
    final val Boolean = 0
    final val Byte = 1
    final val Short = 2
    final val Int = 3
    final val Long = 4
    final val Float = 5
    final val Double = 6
    final val String = 7
    final val Binary = 8
    final val DecimalInt = 9
    final val DecimalLong = 10
    final val DecimalFixedFromLong = 11
    final val DecimalFixed = 12
  }

  /**
   * The kind of every column of `sparkSchema` as `parquetSchema` (its conversion by Spark) stores
   * it, or None when some column is nested, or of a type or layout this writer does not take:
   * such files go through Spark's write support.
   */
  def kinds(sparkSchema: StructType, parquetSchema: MessageType): Option[Array[Kind]] =
    if (parquetSchema.getFieldCount != sparkSchema.length) None
    else {
      val found = sparkSchema.fields.indices.map { i =>
        val t = parquetSchema.getType(i)
        if (!t.isPrimitive || t.isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED)) None
        else kind(sparkSchema(i).dataType, t.asPrimitiveType)
      }
      if (found.forall(_.isDefined)) Some(found.map(_.get).toArray) else None
    }

  private def kind(t: DataType, p: PrimitiveType): Option[Kind] = {
    import PrimitiveTypeName._
    val name = p.getPrimitiveTypeName
    (t, name) match {
      case (BooleanType, BOOLEAN) => Some(Kind.Boolean)
      case (ByteType, INT32) => Some(Kind.Byte)
      case (ShortType, INT32) => Some(Kind.Short)
      // Dates are days since the epoch, written as they are (rebase mode CORRECTED).
      case (IntegerType | DateType, INT32) => Some(Kind.Int)
      // Timestamps as microseconds (TIMESTAMP_MICROS, CORRECTED): the value Spark holds.
      case (LongType, INT64) => Some(Kind.Long)
      case (TimestampType | TimestampNTZType, INT64) if isMicros(p) => Some(Kind.Long)
      case (FloatType, FLOAT) => Some(Kind.Float)
      case (DoubleType, DOUBLE) => Some(Kind.Double)
      case (_: StringType, BINARY) => Some(Kind.String)
      case (BinaryType, BINARY) => Some(Kind.Binary)
      case (d: DecimalType, INT32) if d.precision <= Decimal.MAX_INT_DIGITS => Some(Kind.DecimalInt)
      case (d: DecimalType, INT64) if d.precision <= Decimal.MAX_LONG_DIGITS => Some(Kind.DecimalLong)
      case (d: DecimalType, FIXED_LEN_BYTE_ARRAY) if d.precision <= Decimal.MAX_LONG_DIGITS =>
        Some(Kind.DecimalFixedFromLong)
      case (_: DecimalType, FIXED_LEN_BYTE_ARRAY) => Some(Kind.DecimalFixed)
      case _ => None
    }
  }

  private def decimal(c: ColumnDescriptor): Option[LogicalTypeAnnotation.DecimalLogicalTypeAnnotation] =
    c.getPrimitiveType.getLogicalTypeAnnotation match {
      case d: LogicalTypeAnnotation.DecimalLogicalTypeAnnotation => Some(d)
      case _ => None
    }

  private def isMicros(p: PrimitiveType): Boolean = p.getLogicalTypeAnnotation match {
    case ts: LogicalTypeAnnotation.TimestampLogicalTypeAnnotation =>
      ts.getUnit == LogicalTypeAnnotation.TimeUnit.MICROS
    case _ => false
  }
}
