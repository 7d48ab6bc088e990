// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index.bloom

/** The bloom filter layouts of `hoodie.bloom.index.filter.type`, by Apache Hudi's names. */
sealed abstract class BloomFilterType(val name: String) extends Serializable {
  override def toString: String = name
}

object BloomFilterType {

  /** One fixed-size filter sized for `hoodie.index.bloom.num_entries` keys. */
  case object Simple extends BloomFilterType("SIMPLE")

  /** Filters added as keys grow, up to `hoodie.bloom.index.filter.dynamic.max.entries`. */
  case object DynamicV0 extends BloomFilterType("DYNAMIC_V0")

  val All: Seq[BloomFilterType] = Seq(DynamicV0, Simple)
}
