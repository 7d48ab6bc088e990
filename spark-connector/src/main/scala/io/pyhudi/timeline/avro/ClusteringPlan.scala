// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.Schema
import org.apache.avro.generic.GenericRecord

import io.pyhudi.timeline.{Action, Instant, State, TimelineWriter}
import io.pyhudi.timeline.avro.AvroContainer._

/**
 * One file slice a clustering group reads (`HoodieSliceInfo`). Apache Hudi 0.14/0.15 writes full
 * paths in `dataFilePath` and `deltaFilePaths` ("" for a slice without base file); readers use
 * the file names only.
 */
final case class SliceInfo(
    dataFilePath: Option[String],
    deltaFilePaths: Option[Seq[String]],
    fileId: Option[String],
    partitionPath: Option[String],
    bootstrapFilePath: Option[String] = Some(""),
    version: Option[Int] = Some(1))

/** File slices rewritten together into `numOutputFileGroups` new file groups (`HoodieClusteringGroup`). */
final case class ClusteringGroup(
    slices: Option[Seq[SliceInfo]],
    metrics: Option[Map[String, Double]],
    numOutputFileGroups: Option[Int],
    extraMetadata: Option[Map[String, String]] = None,
    version: Option[Int] = Some(1))

/** How the groups are executed (`HoodieClusteringStrategy`): Hudi's execution strategy class and its parameters. */
final case class ClusteringStrategy(
    strategyClassName: Option[String],
    strategyParams: Option[Map[String, String]],
    version: Option[Int] = Some(1))

/**
 * The plan a clustering replacecommit requests (`HoodieClusteringPlan`, inside
 * `HoodieRequestedReplaceMetadata.clusteringPlan`). `preserveHoodieMetadata` true: rewritten
 * records keep their `_hoodie_commit_time` and `_hoodie_commit_seqno`.
 */
final case class ClusteringPlan(
    inputGroups: Option[Seq[ClusteringGroup]],
    strategy: Option[ClusteringStrategy],
    extraMetadata: Option[Map[String, String]] = None,
    version: Option[Int] = Some(1),
    preserveHoodieMetadata: Option[Boolean] = Some(true)) {

  def groups: Seq[ClusteringGroup] = inputGroups.getOrElse(Nil)

  /** The record stored as `clusteringPlan` of the requested replace metadata. */
  def toRecord: GenericRecord = {
    val s = ClusteringPlan.schema
    val groupSchema = elementSchema(s, "inputGroups")
    val sliceSchema = elementSchema(groupSchema, "slices")
    val strategySchema = s.getField("strategy").schema().getTypes.get(1)
    def doubles(m: Map[String, Double]) = map(m.map { case (k, v) => k -> Double.box(v) })
    record(s,
      "inputGroups" -> nullable(inputGroups.map(gs =>
          list(gs.map { g =>
              record(groupSchema,
                "slices" -> nullable(g.slices.map(ss =>
                    list(ss.map { sl =>
                        record(sliceSchema,
                          "dataFilePath" -> nullable(sl.dataFilePath),
                          "deltaFilePaths" -> nullable(sl.deltaFilePaths.map(list(_))),
                          "fileId" -> nullable(sl.fileId),
                          "partitionPath" -> nullable(sl.partitionPath),
                          "bootstrapFilePath" -> nullable(sl.bootstrapFilePath),
                          "version" -> nullable(sl.version.map(Int.box)))
                      }))),
                "metrics" -> nullable(g.metrics.map(doubles)),
                "numOutputFileGroups" -> nullable(g.numOutputFileGroups.map(Int.box)),
                "extraMetadata" -> nullable(g.extraMetadata.map(map(_))),
                "version" -> nullable(g.version.map(Int.box)))
            }))),
      "strategy" -> nullable(strategy.map(st =>
          record(strategySchema,
            "strategyClassName" -> nullable(st.strategyClassName),
            "strategyParams" -> nullable(st.strategyParams.map(map(_))),
            "version" -> nullable(st.version.map(Int.box))))),
      "extraMetadata" -> nullable(extraMetadata.map(map(_))),
      "version" -> nullable(version.map(Int.box)),
      "preserveHoodieMetadata" -> nullable(preserveHoodieMetadata.map(Boolean.box)))
  }

  /** The content of `T.replacecommit.requested` for this plan (operationType CLUSTER). */
  def toRequested: RequestedReplaceMetadata =
    RequestedReplaceMetadata(Some(ClusteringPlan.OperationType), Some(toRecord), None, Some(1))

  private def elementSchema(s: Schema, field: String): Schema =
    s.getField(field).schema().getTypes.get(1).getElementType
}

object ClusteringPlan {

  /** `operationType` of a clustering's requested replace metadata and of its commit metadata. */
  val OperationType = "CLUSTER"

  def schema: Schema = TimelineSchemas.RequestedReplaceMetadata.getField("clusteringPlan").schema().getTypes.get(1)

  def fromRecord(r: GenericRecord): ClusteringPlan = {
    def doubles(x: GenericRecord, f: String) = mapOf(x, f)(_.asInstanceOf[Number].doubleValue)
    ClusteringPlan(
      records(r, "inputGroups").map(_.map { (g: GenericRecord) =>
        ClusteringGroup(
          records(g, "slices").map(_.map { (sl: GenericRecord) =>
            SliceInfo(str(sl, "dataFilePath"), strings(sl, "deltaFilePaths"), str(sl, "fileId"),
              str(sl, "partitionPath"), str(sl, "bootstrapFilePath"), int(sl, "version"))
          }),
          doubles(g, "metrics"), int(g, "numOutputFileGroups"), mapOf(g, "extraMetadata")(_.toString),
          int(g, "version"))
      }),
      Option(r.get("strategy")).map(_.asInstanceOf[GenericRecord]).map(st =>
        ClusteringStrategy(str(st, "strategyClassName"), mapOf(st, "strategyParams")(_.toString),
          int(st, "version"))),
      mapOf(r, "extraMetadata")(_.toString),
      int(r, "version"),
      Option(r.get("preserveHoodieMetadata")).map(_.asInstanceOf[java.lang.Boolean].booleanValue))
  }

  /**
   * The clustering plan `T.replacecommit.requested` holds, None when `T` is no clustering (an
   * insert_overwrite requests no plan) or has no requested file.
   */
  def requested(timeline: TimelineWriter, instant: String): Option[ClusteringPlan] = {
    val file = Instant(instant, Action.ReplaceCommit, State.Requested)
    val path = timeline.path(file)
    if (!timeline.storage.exists(path)) None
    else {
      val bytes = timeline.read(file)
      if (bytes.isEmpty) None else RequestedReplaceMetadata.fromBytes(bytes, path).clusteringPlan.map(fromRecord)
    }
  }

  /** The clustering plan of a requested replace metadata, None for insert_overwrite's. */
  def of(requested: RequestedReplaceMetadata): Option[ClusteringPlan] =
    requested.clusteringPlan.map(fromRecord)
}
