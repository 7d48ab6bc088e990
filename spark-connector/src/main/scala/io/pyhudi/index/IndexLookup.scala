// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.index

import scala.util.Try

/**
 * What one write's index lookup did, kept in the commit's `extraMetadata` under `pyhudi.index.*`
 * so that history, the CLI and the benchmarks can show whether a lookup read files that held
 * none of its keys. Apache Hudi keeps extraMetadata keys it does not know and never reads these.
 *
 * @param indexType      the index that looked the keys up
 * @param millis         wall time of the lookup: key ranges, bloom filters and stored keys read,
 *                       and the found keys joined with the incoming records
 * @param filesIndexed   latest base files the lookup could search (the partitions in scope)
 * @param filesInRange   base files whose footer key range held an incoming key (BLOOM and
 *                       GLOBAL_BLOOM; the SIMPLE indexes read every indexed file)
 * @param filesProbed    base files whose stored keys were read
 * @param filesMatched   base files holding at least one incoming key (updated or deleted)
 * @param keysRead       stored keys read from the probed files
 * @param bloomChecks    (key, file) pairs checked against a bloom filter
 * @param bloomPositives pairs the bloom filters passed, each then checked against the stored keys
 * @param recordsFound   incoming records whose key the table held
 */
final case class IndexLookup(
    indexType: IndexType,
    millis: Long,
    filesIndexed: Long,
    filesInRange: Long,
    filesProbed: Long,
    filesMatched: Long,
    keysRead: Long,
    bloomChecks: Long,
    bloomPositives: Long,
    recordsFound: Long) {

  def toExtraMetadata: Map[String, String] = {
    import IndexLookup._
    Map(TypeKey -> indexType.name, MillisKey -> millis.toString, FilesIndexedKey -> filesIndexed.toString,
      FilesInRangeKey -> filesInRange.toString, FilesProbedKey -> filesProbed.toString,
      FilesMatchedKey -> filesMatched.toString, KeysReadKey -> keysRead.toString,
      BloomChecksKey -> bloomChecks.toString, BloomPositivesKey -> bloomPositives.toString,
      RecordsFoundKey -> recordsFound.toString)
  }
}

object IndexLookup {
  val TypeKey = "pyhudi.index.type"
  val MillisKey = "pyhudi.index.lookup.ms"
  val FilesIndexedKey = "pyhudi.index.files.indexed"
  val FilesInRangeKey = "pyhudi.index.files.in.range"
  val FilesProbedKey = "pyhudi.index.files.probed"
  val FilesMatchedKey = "pyhudi.index.files.matched"
  val KeysReadKey = "pyhudi.index.keys.read"
  val BloomChecksKey = "pyhudi.index.bloom.checks"
  val BloomPositivesKey = "pyhudi.index.bloom.positives"
  val RecordsFoundKey = "pyhudi.index.records.found"

  /**
   * The lookup recorded in a commit's extraMetadata; None for a commit without one (no lookup,
   * another writer, or a value this version cannot read: the figures are informational).
   */
  def fromExtraMetadata(m: Map[String, String]): Option[IndexLookup] =
    for {
      t <- m.get(TypeKey).flatMap(v => IndexType.All.find(_.name == v))
      lookup <- Try {
        def n(k: String) = m.get(k).map(_.trim.toLong).getOrElse(0L)
        IndexLookup(t, n(MillisKey), n(FilesIndexedKey), n(FilesInRangeKey), n(FilesProbedKey),
          n(FilesMatchedKey), n(KeysReadKey), n(BloomChecksKey), n(BloomPositivesKey), n(RecordsFoundKey))
      }.toOption
    } yield lookup
}
