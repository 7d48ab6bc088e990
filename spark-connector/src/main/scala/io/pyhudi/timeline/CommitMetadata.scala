package io.pyhudi.timeline

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}

/** What a reader needs of one file written by a commit (a `HoodieWriteStat`). */
final case class WriteStat(
    partitionPath: String,
    fileId: String,
    path: Option[String],
    prevCommit: Option[String],
    baseFile: Option[String],
    logFiles: Seq[String]) {

  /** The bare file name the stat describes (its path without the partition folder). */
  def fileName: Option[String] = path.map(p => p.substring(p.lastIndexOf('/') + 1))
}

/**
 * The JSON metadata of a completed commit, deltacommit or replacecommit (table version 6).
 * Unknown fields are ignored, as Apache Hudi does.
 */
final case class CommitMetadata(
    writeStats: Seq[WriteStat],
    replacedFileIds: Map[String, Seq[String]],
    extraMetadata: Map[String, String],
    operationType: Option[String],
    compacted: Boolean) {

  def schema: Option[String] = extraMetadata.get("schema").filter(_.trim.nonEmpty)

  /** File group ids (partition, fileId) this commit wrote to. */
  def touchedFileGroups: Set[(String, String)] =
    writeStats.filter(_.fileId.nonEmpty).map(s => (s.partitionPath, s.fileId)).toSet
}

object CommitMetadata {

  private val mapper = new ObjectMapper()

  val Empty: CommitMetadata = CommitMetadata(Nil, Map.empty, Map.empty, None, compacted = false)

  /** Parses the completed-instant JSON; an empty file is empty metadata, as in Apache Hudi. */
  def parse(bytes: Array[Byte]): CommitMetadata = {
    if (bytes.isEmpty || new String(bytes, "UTF-8").trim.isEmpty) return Empty
    val root = mapper.readTree(bytes)
    val stats = fields(root.get("partitionToWriteStats")).flatMap { case (partition, list) =>
      elements(list).map(s => stat(partition, s))
    }
    val replaced = fields(root.get("partitionToReplaceFileIds")).map { case (p, ids) =>
      p -> elements(ids).flatMap(text)
    }.toMap
    val extra = fields(root.get("extraMetadata")).flatMap { case (k, v) => text(v).map(k -> _) }.toMap
    CommitMetadata(stats, replaced, extra, text(root.get("operationType")),
      Option(root.get("compacted")).exists(_.asBoolean(false)))
  }

  private def stat(partition: String, node: JsonNode): WriteStat = {
    val partitionPath = text(node.get("partitionPath")).getOrElse(partition)
    WriteStat(
      partitionPath = partitionPath,
      fileId = text(node.get("fileId")).getOrElse(""),
      path = text(node.get("path")),
      prevCommit = text(node.get("prevCommit")).filter(_ != "null"),
      baseFile = text(node.get("baseFile")).filter(_.nonEmpty),
      logFiles = elements(node.get("logFiles")).flatMap(text))
  }

  private def text(node: JsonNode): Option[String] =
    Option(node).filter(n => !n.isNull && !n.isMissingNode).map(_.asText())

  private def fields(node: JsonNode): Seq[(String, JsonNode)] =
    Option(node).filter(_.isObject).toSeq.flatMap(_.fields().asScala.map(e => e.getKey -> e.getValue))

  private def elements(node: JsonNode): Seq[JsonNode] =
    Option(node).filter(_.isArray).toSeq.flatMap(_.elements().asScala)
}
