// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import com.fasterxml.jackson.databind.node.{ArrayNode, ObjectNode}

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.timeline.{Instant, State}

/** How the view's answers travel between the timeline service and tasks: plain JSON, round-tripping exactly. */
object ViewJson {
  private val mapper = new ObjectMapper()

  def write(node: JsonNode): String = mapper.writeValueAsString(node)
  def read(text: String): JsonNode = mapper.readTree(text)

  def array[T](items: Seq[T])(encode: T => JsonNode): ArrayNode = {
    val a = mapper.createArrayNode()
    items.foreach(i => a.add(encode(i)))
    a
  }

  def seq[T](node: JsonNode)(decode: JsonNode => T): Seq[T] = node.elements().asScala.map(decode).toSeq

  private def obj(): ObjectNode = mapper.createObjectNode()

  def baseFile(b: BaseFile): JsonNode =
    obj().put("path", b.path).put("fileId", b.fileId).put("writeToken", b.writeToken).put("instant", b.instant)
      .put("size", b.size)

  def toBaseFile(n: JsonNode): BaseFile =
    BaseFile(n.get("path").asText, n.get("fileId").asText, n.get("writeToken").asText, n.get("instant").asText,
      n.get("size").asLong)

  def logFile(l: LogFile): JsonNode =
    obj().put("path", l.path).put("fileId", l.fileId).put("baseInstant", l.baseInstant).put("version", l.version)
      .put("writeToken", l.writeToken).put("size", l.size)

  def toLogFile(n: JsonNode): LogFile =
    LogFile(n.get("path").asText, n.get("fileId").asText, n.get("baseInstant").asText, n.get("version").asInt,
      n.get("writeToken").asText, n.get("size").asLong)

  def groupId(g: FileGroupId): JsonNode = obj().put("partition", g.partitionPath).put("fileId", g.fileId)

  def toGroupId(n: JsonNode): FileGroupId = FileGroupId(n.get("partition").asText, n.get("fileId").asText)

  def slice(s: FileSlice): JsonNode = {
    val o = obj()
    o.set[JsonNode]("group", groupId(s.groupId))
    o.put("baseInstant", s.baseInstant)
    s.baseFile.foreach(b => o.set[JsonNode]("baseFile", baseFile(b)))
    o.set[JsonNode]("logFiles", array(s.logFiles)(logFile))
    o
  }

  def toSlice(n: JsonNode): FileSlice =
    FileSlice(toGroupId(n.get("group")), n.get("baseInstant").asText, Option(n.get("baseFile")).map(toBaseFile),
      seq(n.get("logFiles"))(toLogFile))

  def instant(i: Instant): JsonNode =
    obj().put("timestamp", i.timestamp).put("action", i.action).put("state", stateName(i.state))

  def toInstant(n: JsonNode): Instant = Instant(n.get("timestamp").asText, n.get("action").asText,
    n.get("state").asText match {
      case "requested" => State.Requested
      case "inflight" => State.Inflight
      case _ => State.Completed
    })

  private def stateName(s: State): String = if (s == State.Completed) "completed" else s.suffix

  def pending(items: Seq[(String, Seq[FileGroupId])]): JsonNode =
    array(items) { case (t, groups) =>
      val o = obj().put("instant", t)
      o.set[JsonNode]("fileGroups", array(groups)(groupId))
      o
    }

  def toPending(n: JsonNode): Seq[(String, Seq[FileGroupId])] =
    seq(n)(p => p.get("instant").asText -> seq(p.get("fileGroups"))(toGroupId))

  def strings(items: Seq[String]): JsonNode = array(items)(s => mapper.getNodeFactory.textNode(s))

  def toStrings(n: JsonNode): Seq[String] = seq(n)(_.asText)
}
