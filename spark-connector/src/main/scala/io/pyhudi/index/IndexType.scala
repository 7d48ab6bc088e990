// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import java.util.Locale

import io.pyhudi.errors.Errors

/**
 * The index types of `hoodie.index.type` (Apache Hudi's names). Everything a write decides by
 * index type is asked of this enum, never of the name.
 *
 * @param isGlobal       keys are unique across partitions (a key is found, and may move, anywhere)
 * @param usesBloomFilters candidate files are pruned by footer key ranges and bloom filters before
 *                       their keys are read; otherwise every candidate file's keys are read
 * @param isBucket       the file group follows from the key's hash; there is no lookup
 */
sealed abstract class IndexType(val name: String, val isGlobal: Boolean, val usesBloomFilters: Boolean,
    val isBucket: Boolean) extends Serializable {
  override def toString: String = name
}

object IndexType {
  case object Bloom extends IndexType("BLOOM", isGlobal = false, usesBloomFilters = true, isBucket = false)
  case object Simple extends IndexType("SIMPLE", isGlobal = false, usesBloomFilters = false, isBucket = false)
  case object GlobalBloom extends IndexType("GLOBAL_BLOOM", isGlobal = true, usesBloomFilters = true, isBucket = false)
  case object GlobalSimple
      extends IndexType("GLOBAL_SIMPLE", isGlobal = true, usesBloomFilters = false, isBucket = false)
  case object Bucket extends IndexType("BUCKET", isGlobal = false, usesBloomFilters = false, isBucket = true)

  val All: Seq[IndexType] = Seq(Bloom, Simple, GlobalBloom, GlobalSimple, Bucket)

  /** Parses an option value case-insensitively; `key` names the option in the error. */
  def parse(key: String, value: String): IndexType = {
    val v = value.trim.toUpperCase(Locale.ROOT)
    All.find(_.name == v).getOrElse(throw Errors.invalidEnumOption(key, value, All.map(_.name)))
  }
}
