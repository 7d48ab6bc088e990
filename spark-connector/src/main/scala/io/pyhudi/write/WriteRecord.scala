// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.apache.spark.sql.catalyst.InternalRow

/** Where a stored record lives: its partition and file group. */
final case class Location(partitionPath: String, fileId: String)

/**
 * One incoming record after key generation.
 *
 * @param row      the data columns in table order (no meta columns); unused for deletes
 * @param ordering the precombine value (Catalyst form), null when the table has none
 */
final case class WriteRecord(
    key: String,
    partitionPath: String,
    row: InternalRow,
    ordering: Any,
    isDelete: Boolean)
