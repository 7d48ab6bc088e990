// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

/**
 * One partition of the index lookup's join (Apache Hudi's tagLocation): the incoming records with
 * the stored locations of their keys, both sides partitioned alike by the lookup key. The found
 * locations go into a hash table, the records stream past it. Spark's cogroup puts every record
 * into a spillable map instead, which it re-sizes by sampling as it grows: a seventh of the CPU
 * of a 10% upsert. The table holds only what the index found: at most one entry per incoming
 * key, plus the false positives a filter lets through. Where the found side has no such bound,
 * the caller joins another way.
 */
object LocationJoin {

  /**
   * Each record with each location found for its key (a key found in two file groups, which only
   * a table broken by another writer holds, gives the record twice, as a join does), or with
   * None; records in the order they come.
   */
  def leftOuter[K, R, L](records: Iterator[(K, R)], found: Iterator[(K, L)]): Iterator[(R, Option[L])] = {
    val at = new java.util.HashMap[K, List[L]]()
    found.foreach { case (k, l) =>
      val before = at.get(k)
      at.put(k, if (before == null) l :: Nil else l :: before)
    }
    records.flatMap { case (k, r) =>
      at.get(k) match {
        case null => Iterator.single(r -> None)
        case l :: Nil => Iterator.single(r -> Some(l))
        case ls => ls.reverseIterator.map(l => r -> Some(l))
      }
    }
  }
}
