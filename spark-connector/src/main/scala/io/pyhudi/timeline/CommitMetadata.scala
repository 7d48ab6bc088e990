// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

/**
 * The JSON metadata of a commit, deltacommit or replacecommit (table version 6, hudi-format.md
 * §3): the content of completed files and, as a workload profile, of inflight files. Unknown
 * fields are ignored when parsing, as Apache Hudi does.
 *
 * @param writeStats      one stat per written file, grouped by partition when serialized
 * @param replacedFileIds replacecommits: partition → file group ids the commit retires
 * @param replaceCommit   true for `HoodieReplaceCommitMetadata`: `partitionToReplaceFileIds` is
 *                        written even when empty (Hudi writes it for completed replacecommits
 *                        only, not for their inflight workload profile)
 */
final case class CommitMetadata(
    writeStats: Seq[WriteStat],
    replacedFileIds: Map[String, Seq[String]],
    extraMetadata: Map[String, String],
    operationType: Option[String],
    compacted: Boolean,
    replaceCommit: Boolean = false) {

  def schema: Option[String] = extraMetadata.get("schema").filter(_.trim.nonEmpty)

  /**
   * A partial-column write's non-key data columns (`hoodie.write.conflict.granularity=COLUMN`);
   * None for a write of whole records.
   */
  def partialColumns: Option[Set[String]] =
    extraMetadata.get(CommitMetadata.PartialColumnsKey).map(_.split(',').map(_.trim).filter(_.nonEmpty).toSet)

  /** The column that orders a partial-column write's column group, if any. */
  def partialOrderingField: Option[String] =
    extraMetadata.get(CommitMetadata.PartialOrderingFieldKey).map(_.trim).filter(_.nonEmpty)

  /** File group ids (partition, fileId) this commit wrote to. */
  def touchedFileGroups: Set[(String, String)] =
    writeStats.filter(_.fileId.nonEmpty).map(s => (s.partitionPath, s.fileId)).toSet

  /**
   * Hudi's JSON: pretty-printed with two-space indentation and Hudi's field names and order.
   * Fields this model does not carry are written as Hudi writes them when unused: `tempPath`,
   * `cdcStats`, `minEventTime`, `maxEventTime` null and `recordsStats` `{"val": null}`.
   */
  def toJson: Array[Byte] = CommitMetadataJson.write(this)
}

object CommitMetadata {

  /** extraMetadata of a partial-column write: the non-key data columns it wrote, comma-separated. */
  val PartialColumnsKey = "pyhudi.partial.columns"

  /** extraMetadata of a partial-column write: its column group's ordering column. */
  val PartialOrderingFieldKey = "pyhudi.partial.ordering.field"

  val Empty: CommitMetadata = CommitMetadata(Nil, Map.empty, Map.empty, None, compacted = false)

  /** Parses commit metadata JSON; an empty file is empty metadata, as in Apache Hudi. */
  def parse(bytes: Array[Byte]): CommitMetadata = CommitMetadataJson.parse(bytes)
}
