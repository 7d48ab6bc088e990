// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import java.io.File
import java.nio.file.Files

import org.apache.avro.Schema
import org.apache.avro.file.{DataFileReader, SeekableByteArrayInput}
import org.apache.avro.generic.{GenericDatumReader, GenericRecord}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.CorruptFileException
import io.pyhudi.testutil.Corpus

/** Timeline Avro records against the files Hudi wrote (hudi-format.md §8.1). */
class TimelineAvroSuite extends AnyFunSuite {

  private lazy val meta = new File(Corpus.extract("mor/v6_nonpartitioned_rollback"), ".hoodie")
  private def bytes(name: String): Array[Byte] = Files.readAllBytes(new File(meta, name).toPath)

  private val base = "/opt/data/external_tables/v6_nonpartitioned_rollback"
  private val fileId = "0712b9f9-d2d5-4cae-bcf4-8fd7146af503-0"
  private val failedLog = s"file:$base/.${fileId}_20250126040823628.log.1_0-33-43"

  /** The writer schema embedded in a container file, and its single record read with it. */
  private def embedded(b: Array[Byte]): (Schema, GenericRecord) = {
    val r = new DataFileReader[GenericRecord](new SeekableByteArrayInput(b), new GenericDatumReader[GenericRecord]())
    try (r.getSchema, r.next())
    finally r.close()
  }

  /** Reads `ours` with Avro schema resolution from its own schema to `theirs`. */
  private def resolve(ours: Array[Byte], theirs: Schema): GenericRecord = {
    val r = new DataFileReader[GenericRecord](new SeekableByteArrayInput(ours),
      new GenericDatumReader[GenericRecord](null, theirs))
    try { val rec = r.next(); assert(!r.hasNext); rec }
    finally r.close()
  }

  test("decodes the rollback plan Hudi wrote") {
    val plan = RollbackPlan.fromBytes(bytes("20250126040936578.rollback.requested"))
    assert(plan.instantToRollback.contains(InstantInfo("20250126040826878", "deltacommit")))
    assert(plan.version.contains(1))
    val requests = plan.rollbackRequests.get
    assert(requests.size == 2)
    val (baseRequest, logRequest) = (requests.head, requests(1))
    assert(baseRequest == RollbackRequest("", Some(""), Some(""),
      Seq(s"$base/cd329d8f-0ce4-4654-84ab-2f769aae5034-0_1-33-44_20250126040826878.parquet"), Some(Map.empty)))
    assert(logRequest.fileId.contains(fileId) && logRequest.latestBaseInstant.contains("20250126040823628"))
    assert(logRequest.filesToBeDeleted.isEmpty)
    assert(logRequest.logBlocksToBeDeleted.exists(_.keySet == Set(failedLog)))
  }

  test("decodes the rollback metadata Hudi wrote") {
    val m = RollbackMetadata.fromBytes(bytes("20250126040936578.rollback"))
    assert(m.startRollbackTime == "20250126040936578" && m.totalFilesDeleted == 1)
    assert(m.commitsRollback == Seq("20250126040826878"))
    assert(m.instantsRollback == Seq(InstantInfo("20250126040826878", "deltacommit")))
    val p = m.partitionMetadata("")
    assert(p.successDeleteFiles.size == 1 && p.failedDeleteFiles.isEmpty)
    assert(p.rollbackLogFiles.contains(Map(s"file:$base/.${fileId}_20250126040823628.log.2_1-0-1" -> 105L)))
    assert(p.logFilesFromFailedCommit.exists(_.keySet == Set(failedLog)))
  }

  test("written rollback plan and metadata resolve against Hudi's schemas to the same values") {
    Seq("20250126040936578.rollback.requested" -> ((b: Array[Byte]) => RollbackPlan.fromBytes(b).toBytes),
      "20250126040936578.rollback" -> ((b: Array[Byte]) => RollbackMetadata.fromBytes(b).toBytes)).foreach {
      case (name, rewrite) =>
        val (theirSchema, theirRecord) = embedded(bytes(name))
        val ours = rewrite(bytes(name))
        assert(embedded(ours)._1.getFullName == theirSchema.getFullName)
        assert(resolve(ours, theirSchema) == theirRecord, name)
    }
  }

  test("requested replace metadata: Hudi's all-null record, resolved against Hudi's schema") {
    val table = Corpus.extract("cow/v6_simplekeygen_nonhivestyle_overwritetable")
    val file = new File(table, ".hoodie").listFiles().find(_.getName.endsWith(".replacecommit.requested")).get
    val real = Files.readAllBytes(file.toPath)
    assert(RequestedReplaceMetadata.fromBytes(real) == RequestedReplaceMetadata.InsertOverwrite)
    val (theirSchema, theirRecord) = embedded(real)
    assert(resolve(RequestedReplaceMetadata.InsertOverwrite.toBytes, theirSchema) == theirRecord)
    val withOp = RequestedReplaceMetadata(Some("INSERT_OVERWRITE"), None, Some(Map("k" -> "v")), Some(1))
    assert(resolve(withOp.toBytes, theirSchema).get("operationType").toString == "INSERT_OVERWRITE")
  }

  test("compaction plan round trips; schema matches hudi-format.md §8.1") {
    val plan = CompactionPlan(Some(Seq(CompactionOperation(Some("20250101000000001"),
            Some(Seq(".f1_20250101000000001.log.1_0-1-0")), Some("f1_0-1-0_20250101000000001.parquet"),
            Some("f1"), Some("p=1"), Some(Map("TOTAL_LOG_FILES" -> 1.0))))), Some(Map("k" -> "v")))
    assert(CompactionPlan.fromBytes(plan.toBytes) == plan)
    val s = TimelineSchemas.CompactionPlan
    assert(s.getFullName == "org.apache.hudi.avro.model.HoodieCompactionPlan")
    val op = s.getField("operations").schema().getTypes.get(1).getElementType
    assert(op.getFullName == "org.apache.hudi.avro.model.HoodieCompactionOperation")
    import scala.jdk.CollectionConverters._
    assert(op.getFields.asScala.map(_.name) == Seq("baseInstantTime", "deltaFilePaths", "dataFilePath",
      "fileId", "partitionPath", "metrics", "bootstrapFilePath"))
    assert(!op.getField("fileId").hasDefaultValue && op.getField("partitionPath").hasDefaultValue)
    assert(s.getField("version").schema().getTypes.get(0).getType == Schema.Type.INT)
  }

  test("savepoint and restore records: Hudi's full names and field order, round trips") {
    def fields(s: Schema): Seq[String] = {
      import scala.jdk.CollectionConverters._; s.getFields.asScala.map(_.name).toSeq
    }
    assert(TimelineSchemas.SavepointMetadata.getFullName == "org.apache.hudi.avro.model.HoodieSavepointMetadata")
    assert(fields(TimelineSchemas.SavepointMetadata) ==
      Seq("savepointedBy", "savepointedAt", "comments", "partitionMetadata", "version"))
    assert(TimelineSchemas.SavepointMetadata.getField("partitionMetadata").schema().getValueType.getFullName ==
      "org.apache.hudi.avro.model.HoodieSavepointPartitionMetadata")
    assert(fields(TimelineSchemas.RestorePlan) == Seq("instantsToRollback", "version", "savepointToRestoreTimestamp"))
    assert(fields(TimelineSchemas.RestoreMetadata) == Seq("startRestoreTime", "timeTakenInMillis",
      "instantsToRollback", "hoodieRestoreMetadata", "version", "restoreInstantInfo", "extraMetadata"))
    assert(TimelineSchemas.RestoreMetadata.getField("restoreInstantInfo").schema().getElementType.getFullName ==
      "org.apache.hudi.avro.model.HoodieInstantInfo")

    val sp = SavepointMetadata("me", 1700000000L, "c", Map("a" -> Seq("f1", "f2"), "" -> Nil))
    assert(SavepointMetadata.fromBytes(sp.toBytes) == sp)
    // The first savepoint schema had no version: resolving against it skips the field.
    val v0 = new Schema.Parser().parse(TimelineSchemas.SavepointMetadata.toString
        .replace(""",{"name":"version","type":["int","null"],"default":1}""", ""))
    assert(!v0.toString.contains("version"))
    assert(resolve(sp.toBytes, v0).get("comments").toString == "c")
    val plan = RestorePlan(Seq(InstantInfo("2", "commit"), InstantInfo("1", "deltacommit")), Some("0"))
    assert(RestorePlan.fromBytes(plan.toBytes) == plan)
    val rollback =
      RollbackMetadata("3", 5L, 1, Seq("2"), Map("" -> RollbackPartitionMetadata("", Seq("x"), Nil, None, None)),
        Some(1), Seq(InstantInfo("2", "commit")))
    val restore = RestoreMetadata("4", 7L, Seq("2"), Map("2" -> Seq(rollback)), Seq(InstantInfo("2", "commit")))
    assert(RestoreMetadata.fromBytes(restore.toBytes) == restore)
    assert(embedded(restore.toBytes)._1.getFullName == "org.apache.hudi.avro.model.HoodieRestoreMetadata")
  }

  test("a file that is no Avro container fails naming it") {
    val e = intercept[CorruptFileException](RollbackPlan.fromBytes("{}".getBytes, "/t/.hoodie/1.rollback.requested"))
    assert(e.getMessage.contains("/t/.hoodie/1.rollback.requested"))
  }
}
