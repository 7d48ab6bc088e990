// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

/**
 * The min/max record keys of the base files a bloom lookup may probe (from their footers),
 * grouped so that a key is only checked against files it can be in: the files of its own
 * partition, or of every partition for a global index, whose key range contains it.
 *
 * @param files (file number, partition path, min key, max key); a file without a range
 *              (no footer keys) is a candidate for every key
 */
final class KeyRanges(files: Seq[(Int, String, Option[String], Option[String])], global: Boolean,
    pruneByRanges: Boolean) extends Serializable {

  private val byPartition: Map[String, IndexedSeq[(Int, Option[String], Option[String])]] =
    files.toIndexedSeq.groupMap(f => if (global) "" else f._2)(f => (f._1, f._3, f._4))

  /** Numbers of the files that may hold `key` of `partition`. */
  def candidates(partition: String, key: String): Seq[Int] =
    byPartition.getOrElse(if (global) "" else partition, IndexedSeq.empty).collect {
      case (i, lo, hi) if !pruneByRanges || (lo.forall(_ <= key) && hi.forall(_ >= key)) => i
    }
}
