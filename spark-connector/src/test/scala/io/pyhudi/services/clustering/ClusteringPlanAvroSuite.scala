// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.services.clustering

import scala.jdk.CollectionConverters._

import org.apache.avro.Schema
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.timeline.avro.{
  ClusteringGroup,
  ClusteringPlan,
  ClusteringStrategy,
  RequestedReplaceMetadata,
  SliceInfo
}

/** The clustering plan as Apache Hudi's `HoodieRequestedReplaceMetadata` / `HoodieClusteringPlan` schemas define it. */
class ClusteringPlanAvroSuite extends AnyFunSuite {

  private def fields(s: Schema): Seq[(String, String)] = s.getFields.asScala.toSeq.map { f =>
    val t = f.schema()
    f.name -> (if (t.getType == Schema.Type.UNION) t.getTypes.asScala.map(_.getType.getName).mkString("|")
               else t.getType.getName)
  }

  private def nonNull(s: Schema): Schema = s.getTypes.asScala.find(_.getType != Schema.Type.NULL).get

  test("field names, order and types match Hudi 0.14/0.15's avsc") {
    val plan = ClusteringPlan.schema
    assert(plan.getFullName == "org.apache.hudi.avro.model.HoodieClusteringPlan")
    assert(fields(plan) == Seq("inputGroups" -> "null|array", "strategy" -> "null|record",
      "extraMetadata" -> "null|map", "version" -> "int|null", "preserveHoodieMetadata" -> "null|boolean"))
    val group = nonNull(plan.getField("inputGroups").schema()).getElementType
    assert(group.getName == "HoodieClusteringGroup")
    assert(fields(group) == Seq("slices" -> "null|array", "metrics" -> "null|map",
      "numOutputFileGroups" -> "int|null", "extraMetadata" -> "null|map", "version" -> "int|null"))
    val slice = nonNull(group.getField("slices").schema()).getElementType
    assert(slice.getName == "HoodieSliceInfo")
    assert(fields(slice) == Seq("dataFilePath" -> "null|string", "deltaFilePaths" -> "null|array",
      "fileId" -> "null|string", "partitionPath" -> "null|string", "bootstrapFilePath" -> "null|string",
      "version" -> "int|null"))
    val strategy = nonNull(plan.getField("strategy").schema())
    assert(strategy.getName == "HoodieClusteringStrategy")
    assert(fields(strategy) == Seq("strategyClassName" -> "null|string", "strategyParams" -> "null|map",
      "version" -> "int|null"))
  }

  test("a plan survives requested replace metadata bytes unchanged, with operationType CLUSTER") {
    val first = ClusteringGroup(
      Some(Seq(
          SliceInfo(Some("/t/p/f1_0-1-0_001.parquet"), Some(Nil), Some("f1"), Some("p")),
          SliceInfo(Some(""), Some(Seq("/t/p/.f2_001.log.1_0-1-0")), Some("f2"), Some("p")))),
      Some(Map("TOTAL_IO_MB" -> 3.0)), Some(2), Some(Map.empty))
    val second =
      ClusteringGroup(Some(Seq(SliceInfo(Some("/t/q/f3_0-1-0_001.parquet"), Some(Nil), Some("f3"), Some("q")))),
        None, Some(1))
    val plan = ClusteringPlan(Some(Seq(first, second)),
      Some(ClusteringStrategy(Some(ClusteringPlanner.ExecutionStrategyClass), Some(Map("k" -> "v")))),
      Some(Map.empty))
    val back = RequestedReplaceMetadata.fromBytes(plan.toRequested.toBytes)
    assert(back.operationType.contains("CLUSTER") && back.version.contains(1))
    assert(ClusteringPlan.of(back).contains(plan))
    assert(ClusteringSlices.groupIds(plan).map(_.toString) ==
      Seq("FileGroupId(p,f1)", "FileGroupId(p,f2)", "FileGroupId(q,f3)"))
    assert(ClusteringPlan.of(RequestedReplaceMetadata.fromBytes(RequestedReplaceMetadata.InsertOverwrite.toBytes))
        .isEmpty, "insert_overwrite requests no plan")
  }
}
