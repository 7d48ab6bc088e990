// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import io.pyhudi.errors.Errors
import io.pyhudi.write.Location

/**
 * What tagging decides for one incoming record, given where the index found its key (Apache
 * Hudi's `tagLocation` outcomes).
 */
sealed trait Tag

object Tag {

  /** The key is new to the table (or to this partition, for a partitioned index). */
  case object Insert extends Tag

  /** The key lives in `at`, in the record's own partition: merge there. */
  final case class Update(at: Location) extends Tag

  /**
   * Global index, key found in another partition, partition path updates on: delete the stored
   * record at `from` and insert the incoming one in its new partition (nothing to insert when
   * the incoming record is itself a delete).
   */
  final case class Move(from: Location) extends Tag

  /**
   * Global index, key found in another partition, partition path updates off: the record is
   * merged where it is stored, keeping its old partition.
   */
  final case class UpdateInPlace(at: Location) extends Tag
}

object TagResolution {

  /**
   * The key an index joins incoming and stored keys on: partitioned indexes match the key
   * within its partition, global ones the key alone.
   */
  def lookupKey(isGlobal: Boolean, partitionPath: String, key: String): (String, String) =
    (if (isGlobal) "" else partitionPath, key)

  /**
   * The tag of a record of `partitionPath` whose key the index found at `found`.
   *
   * @param updatePartitionPath `hoodie.{bloom,simple}.index.update.partition.path`
   */
  def resolve(indexType: IndexType, partitionPath: String, found: Option[Location],
      updatePartitionPath: Boolean): Tag = found match {
    case None => Tag.Insert
    case Some(at) if at.partitionPath == partitionPath => Tag.Update(at)
    case Some(at) if !indexType.isGlobal =>
      throw Errors.internal(s"a partitioned index found a key of $partitionPath in ${at.partitionPath}")
    case Some(at) if updatePartitionPath => Tag.Move(at)
    case Some(at) => Tag.UpdateInPlace(at)
  }
}
