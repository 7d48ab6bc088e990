// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.ObjectNode

/** Reads and writes [[CommitMetadata]] in Hudi's JSON shape (hudi-format.md §3). */
private[timeline] object CommitMetadataJson {

  private val mapper = new ObjectMapper()

  def parse(bytes: Array[Byte]): CommitMetadata = {
    if (bytes.isEmpty || new String(bytes, "UTF-8").trim.isEmpty) return CommitMetadata.Empty
    val root = mapper.readTree(bytes)
    val stats = fields(root.get("partitionToWriteStats")).flatMap { case (partition, list) =>
      elements(list).map(s => stat(partition, s))
    }
    val replaceNode = root.get("partitionToReplaceFileIds")
    val replaced = fields(replaceNode).map { case (p, ids) => p -> elements(ids).flatMap(text) }.toMap
    val extra = fields(root.get("extraMetadata")).flatMap { case (k, v) => text(v).map(k -> _) }.toMap
    CommitMetadata(stats, replaced, extra, text(root.get("operationType")),
      Option(root.get("compacted")).exists(_.asBoolean(false)),
      replaceCommit = replaceNode != null && replaceNode.isObject)
  }

  private def stat(partition: String, n: JsonNode): WriteStat = {
    def long(name: String): Long = Option(n.get(name)).map(_.asLong(0L)).getOrElse(0L)
    WriteStat(
      partitionPath = text(n.get("partitionPath")).getOrElse(partition),
      fileId = text(n.get("fileId")).getOrElse(""),
      path = text(n.get("path")),
      prevCommit = text(n.get("prevCommit")).filter(_ != "null"),
      baseFile = text(n.get("baseFile")).filter(_.nonEmpty),
      logFiles = elements(n.get("logFiles")).flatMap(text),
      numWrites = long("numWrites"),
      numDeletes = long("numDeletes"),
      numUpdateWrites = long("numUpdateWrites"),
      numInserts = long("numInserts"),
      totalWriteBytes = long("totalWriteBytes"),
      totalWriteErrors = long("totalWriteErrors"),
      fileSizeInBytes = long("fileSizeInBytes"),
      logVersion = present(n.get("logVersion")).map(_.asInt(0)),
      logOffset = long("logOffset"),
      prevBaseFile = text(n.get("prevBaseFile")),
      totalLogRecords = long("totalLogRecords"),
      totalLogFilesCompacted = long("totalLogFilesCompacted"),
      totalLogSizeCompacted = long("totalLogSizeCompacted"),
      totalUpdatedRecordsCompacted = long("totalUpdatedRecordsCompacted"),
      totalLogBlocks = long("totalLogBlocks"),
      totalCorruptLogBlock = long("totalCorruptLogBlock"),
      totalRollbackBlocks = long("totalRollbackBlocks"),
      runtimeStats = present(n.get("runtimeStats")).filter(_.isObject).map { r =>
        def t(name: String) = Option(r.get(name)).map(_.asLong(0L)).getOrElse(0L)
        RuntimeStats(t("totalScanTime"), t("totalUpsertTime"), t("totalCreateTime"))
      })
  }

  def write(m: CommitMetadata): Array[Byte] = {
    val root = mapper.createObjectNode()
    val byPartition = mutable.LinkedHashMap.empty[String, mutable.ArrayBuffer[WriteStat]]
    m.writeStats.foreach(s => byPartition.getOrElseUpdate(s.partitionPath, mutable.ArrayBuffer.empty) += s)
    val statsNode = root.putObject("partitionToWriteStats")
    byPartition.foreach { case (p, stats) =>
      val array = statsNode.putArray(p)
      stats.foreach(s => writeStat(array.addObject(), s))
    }
    root.put("compacted", m.compacted)
    val extra = root.putObject("extraMetadata")
    m.extraMetadata.foreach { case (k, v) => extra.put(k, v) }
    m.operationType match {
      case Some(op) => root.put("operationType", op)
      case None => root.putNull("operationType")
    }
    if (m.replaceCommit || m.replacedFileIds.nonEmpty) {
      val replaced = root.putObject("partitionToReplaceFileIds")
      m.replacedFileIds.foreach { case (p, ids) => val a = replaced.putArray(p); ids.foreach(a.add) }
    }
    mapper.writerWithDefaultPrettyPrinter().writeValueAsBytes(root)
  }

  /** Field order is Hudi's (Jackson serializes `HoodieWriteStat` fields in declaration order). */
  private def writeStat(o: ObjectNode, s: WriteStat): Unit = {
    o.put("fileId", s.fileId)
    putText(o, "path", s.path)
    o.putNull("cdcStats")
    o.put("prevCommit", s.prevCommit.getOrElse("null"))
    s.prevBaseFile.foreach(o.put("prevBaseFile", _))
    o.put("numWrites", s.numWrites)
    o.put("numDeletes", s.numDeletes)
    o.put("numUpdateWrites", s.numUpdateWrites)
    o.put("numInserts", s.numInserts)
    o.put("totalWriteBytes", s.totalWriteBytes)
    o.put("totalWriteErrors", s.totalWriteErrors)
    o.putNull("tempPath")
    // A workload-profile entry describes no file; Hudi leaves its partitionPath null.
    putText(o, "partitionPath", s.path.map(_ => s.partitionPath))
    o.put("totalLogRecords", s.totalLogRecords)
    o.put("totalLogFilesCompacted", s.totalLogFilesCompacted)
    o.put("totalLogSizeCompacted", s.totalLogSizeCompacted)
    o.put("totalUpdatedRecordsCompacted", s.totalUpdatedRecordsCompacted)
    o.put("totalLogBlocks", s.totalLogBlocks)
    o.put("totalCorruptLogBlock", s.totalCorruptLogBlock)
    o.put("totalRollbackBlocks", s.totalRollbackBlocks)
    o.put("fileSizeInBytes", s.fileSizeInBytes)
    o.putNull("minEventTime")
    o.putNull("maxEventTime")
    s.runtimeStats match {
      case Some(r) =>
        val n = o.putObject("runtimeStats")
        n.put("totalScanTime", r.totalScanTime)
        n.put("totalUpsertTime", r.totalUpsertTime)
        n.put("totalCreateTime", r.totalCreateTime)
      case None => o.putNull("runtimeStats")
    }
    s.logVersion.foreach { v =>
      o.put("logVersion", v)
      o.put("logOffset", s.logOffset)
      o.put("baseFile", s.baseFile.getOrElse(""))
      val logs = o.putArray("logFiles")
      s.logFiles.foreach(logs.add)
      o.putObject("recordsStats").putNull("val")
    }
  }

  private def putText(o: ObjectNode, name: String, value: Option[String]): Unit = value match {
    case Some(v) => o.put(name, v)
    case None => o.putNull(name)
  }

  private def present(node: JsonNode): Option[JsonNode] =
    Option(node).filter(n => !n.isNull && !n.isMissingNode)

  private def text(node: JsonNode): Option[String] = present(node).map(_.asText())

  private def fields(node: JsonNode): Seq[(String, JsonNode)] =
    Option(node).filter(_.isObject).toSeq.flatMap(_.fields().asScala.map(e => e.getKey -> e.getValue))

  private def elements(node: JsonNode): Seq[JsonNode] =
    Option(node).filter(_.isArray).toSeq.flatMap(_.elements().asScala)
}
