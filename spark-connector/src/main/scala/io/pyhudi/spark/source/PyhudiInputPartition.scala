// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.connector.read.InputPartition

import io.pyhudi.filegroup.FileSlice

/**
 * One task's work: a file slice, or a byte range of a large base file when the slice has no
 * log files (parquet assigns each row group to the range holding its midpoint).
 */
final case class PyhudiInputPartition(slice: FileSlice, start: Long, length: Long)
    extends InputPartition
