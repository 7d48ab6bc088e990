// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

/** Ordinals of the keys of a block's header and footer maps (hudi-format.md §6.4). */
object HeaderKey {

  /** The instant that wrote the block: the deltacommit, or the rollback for a command block. */
  val InstantTime = 0

  /** Command blocks: the instant whose blocks are rolled back. */
  val TargetInstantTime = 1

  /** Data blocks: the writer's Avro schema JSON, meta fields included. */
  val Schema = 2

  /** Command blocks: the command ordinal, see [[CommandType]]. */
  val CommandBlockType = 3
  val CompactedBlockTimes = 4
  val RecordPositions = 5
  val BlockIdentifier = 6
  val IsPartial = 7
  val BaseFileInstantTimeOfRecordPositions = 8
}

/**
 * A partial-column data block (Apache Hudi's IS_PARTIAL header, "true"): its records set only the
 * columns of its SCHEMA; the others keep their values. Engines that do not know the header stop
 * at it (Apache Hudi 0.x, hudi-rs) rather than read the absent columns as null.
 */
object PartialBlock {

  /** The block schema's property naming the column that orders its column group (pyhudi's). */
  val OrderingFieldProp = "pyhudi.ordering.field"

  def isPartial(header: Map[Int, String]): Boolean =
    header.get(HeaderKey.IsPartial).exists(_.trim.equalsIgnoreCase("true"))
}

/** Ordinals of log block types as written in the block (hudi-format.md §6.3). */
object BlockType {
  val Command = 0
  val Delete = 1

  /** Never written; Hudi's reader-side placeholder, treated as corrupt when found on disk. */
  val Corrupt = 2
  val AvroData = 3
  val HFileData = 4
  val ParquetData = 5
  val CdcData = 6

  private val Names =
    Vector("COMMAND", "DELETE", "CORRUPT", "AVRO_DATA", "HFILE_DATA", "PARQUET_DATA", "CDC_DATA")

  /** Hudi's name of a block type code, or `UNKNOWN(code)`. */
  def name(code: Int): String = if (code >= 0 && code < Names.size) Names(code) else s"UNKNOWN($code)"
}

/** Values of the COMMAND_BLOCK_TYPE header. Rollback is the only command Hudi defines. */
object CommandType {
  val Rollback = 0
}
