// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.handle

import org.apache.spark.sql.catalyst.InternalRow

/** A parquet base file being written; rows are in the table schema (meta columns first). */
trait BaseFileWriter {
  def write(row: InternalRow): Unit

  /** Bytes written so far (buffered pages included), for rolling to the next file. */
  def dataSize: Long

  /** Finishes the file with `footer` added to its key-value metadata; returns its size. */
  def close(footer: Map[String, String]): Long

  /** Abandons the file (best effort). */
  def abort(): Unit
}

/** Opens base file writers on executors; built on the driver. */
trait BaseFileWriterFactory extends Serializable {
  def open(path: String): BaseFileWriter
}
