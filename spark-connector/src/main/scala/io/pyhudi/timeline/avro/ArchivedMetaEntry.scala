// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.avro.Schema
import org.apache.avro.generic.{GenericData, GenericRecord}

import io.pyhudi.timeline.{Action, Instant, State}
import io.pyhudi.timeline.avro.AvroContainer._

/**
 * `HoodieArchivedMetaEntry` records (hudi-format.md §2.6): what the archived timeline keeps of
 * one state file of an instant. Like Apache Hudi's archiver, each requested, inflight and
 * completed file becomes an entry of its own, its content in the field of its action and state:
 * commit JSON converted to the Avro `HoodieCommitMetadata` (or `HoodieReplaceCommitMetadata`),
 * the Avro plans and metadata of services as they are. Content pyhudi has no field for (a
 * rollback plan, a restore) is left out, as Hudi does.
 */
object ArchivedMetaEntry {

  val Schema: Schema = TimelineSchemas.ArchivedMetaEntry

  /** Hudi's names of instant states, as `actionState` holds them. */
  def stateName(s: State): String = s match {
    case State.Completed => "COMPLETED"
    case State.Inflight => "INFLIGHT"
    case State.Requested => "REQUESTED"
  }

  def stateOf(name: String): Option[State] = name match {
    case "COMPLETED" => Some(State.Completed)
    case "INFLIGHT" => Some(State.Inflight)
    case "REQUESTED" => Some(State.Requested)
    case _ => None
  }

  /** The entry of the state file `instant` whose bytes are `content`; `what` names it in errors. */
  def of(instant: Instant, content: Array[Byte], what: String): GenericRecord = {
    val r = new GenericData.Record(Schema)
    r.put("commitTime", instant.timestamp)
    r.put("actionType", instant.action)
    r.put("actionState", stateName(instant.state))
    r.put("version", 1)
    if (content.nonEmpty) payload(instant, content, what).foreach { case (field, value) => r.put(field, value) }
    r
  }

  /** The instant an entry records, when its time, action and state are readable. */
  def instantOf(r: GenericRecord): Option[Instant] =
    for {
      t <- str(r, "commitTime")
      a <- str(r, "actionType")
      s <- str(r, "actionState").flatMap(stateOf)
    } yield Instant(t, a, s)

  private def payload(instant: Instant, content: Array[Byte], what: String): Option[(String, AnyRef)] = {
    def avro(field: String): Option[(String, AnyRef)] =
      Some(field -> read(content, nested(field), what))
    (instant.action, instant.state) match {
      case (Action.Commit | Action.DeltaCommit, _) =>
        commitJson(content, nested("hoodieCommitMetadata")).map("hoodieCommitMetadata" -> _)
      case (Action.ReplaceCommit, State.Completed) =>
        commitJson(content, nested("hoodieReplaceCommitMetadata")).map("hoodieReplaceCommitMetadata" -> _)
      case (Action.ReplaceCommit, State.Inflight) =>
        commitJson(content, nested("HoodieInflightReplaceMetadata")).map("HoodieInflightReplaceMetadata" -> _)
      case (Action.ReplaceCommit, State.Requested) => avro("hoodieRequestedReplaceMetadata")
      case (Action.Clean, State.Completed) => avro("hoodieCleanMetadata")
      case (Action.Clean, _) => avro("hoodieCleanerPlan")
      case (Action.Rollback, State.Completed) => avro("hoodieRollbackMetadata")
      case (Action.Savepoint, State.Completed) => avro("hoodieSavePointMetadata")
      case (Action.Compaction | Action.LogCompaction, _) => avro("hoodieCompactionPlan")
      case _ => None
    }
  }

  /** The record schema of a `["null", Record]` field of the entry. */
  private def nested(field: String): Schema =
    Schema.getField(field).schema().getTypes.asScala.find(_.getType == org.apache.avro.Schema.Type.RECORD).get

  private val mapper = new ObjectMapper()

  /**
   * Commit JSON (hudi-format.md §3) as the Avro record `schema`: the write stats' fields the
   * record has, `extraMetadata`, `operationType` and, for a replacecommit, the replaced file
   * ids. None for content that is not a JSON object (an inflight file of an older writer).
   */
  private def commitJson(content: Array[Byte], schema: Schema): Option[GenericRecord] = {
    val root =
      try mapper.readTree(content)
      catch { case NonFatal(_) => null }
    if (root == null || !root.isObject) return None
    val statSchema = schema.getField("partitionToWriteStats").schema().getTypes.get(1).getValueType.getElementType
    val r = new GenericData.Record(schema)
    r.put("partitionToWriteStats",
      map(fields(root.get("partitionToWriteStats")).map { case (p, stats) =>
        p -> list(elements(stats).map(s => writeStat(s, statSchema)))
      }.toMap))
    r.put("extraMetadata",
      map(fields(root.get("extraMetadata")).collect {
        case (k, v) if !v.isNull => k -> (if (v.isTextual) v.asText() else v.toString)
      }.toMap))
    r.put("version", 1)
    r.put("operationType", text(root.get("operationType")).orNull)
    if (schema.getField("partitionToReplaceFileIds") != null)
      r.put("partitionToReplaceFileIds",
        Option(root.get("partitionToReplaceFileIds")).filter(_.isObject).map { n =>
          map(fields(n).map { case (p, ids) => p -> list(elements(ids).flatMap(text)) }.toMap)
        }.orNull)
    Some(r)
  }

  private def writeStat(n: JsonNode, schema: Schema): GenericRecord = {
    val r = new GenericData.Record(schema)
    schema.getFields.asScala.foreach { f =>
      val isLong = f.schema().getTypes.asScala.exists(_.getType == org.apache.avro.Schema.Type.LONG)
      val v = Option(n.get(f.name())).filterNot(_.isNull)
      r.put(f.name(),
        if (isLong) v.filter(_.canConvertToLong).map(x => Long.box(x.asLong())).orNull
        else v.map(x => if (x.isTextual) x.asText() else x.toString).orNull)
    }
    r
  }

  private def text(n: JsonNode): Option[String] = Option(n).filterNot(_.isNull).map(_.asText())

  private def fields(n: JsonNode): Seq[(String, JsonNode)] =
    if (n == null || !n.isObject) Nil else n.fields().asScala.map(e => e.getKey -> e.getValue).toSeq

  private def elements(n: JsonNode): Seq[JsonNode] =
    if (n == null || !n.isArray) Nil else n.elements().asScala.toSeq
}
