// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline.avro

import org.apache.avro.Schema

/** Schemas of the timeline Avro records (hudi-format.md §8.1); `T?` there is `["null", T]`. */
object TimelineSchemas {

  val Namespace = "org.apache.hudi.avro.model"

  private val NullableString = """["null","string"]"""
  private val StringMap = """["null",{"type":"map","values":"string"}]"""
  private val LongMap = """["null",{"type":"map","values":"long"}]"""

  private val InstantInfo =
    """{"type":"record","name":"HoodieInstantInfo","fields":[
      |{"name":"commitTime","type":"string"},
      |{"name":"action","type":"string"}]}""".stripMargin

  val RollbackPlan: Schema = parse(
    s"""{"type":"record","name":"HoodieRollbackPlan","namespace":"$Namespace","fields":[
       |{"name":"instantToRollback","type":["null",$InstantInfo],"default":null},
       |{"name":"RollbackRequests","type":["null",{"type":"array","items":
       |  {"type":"record","name":"HoodieRollbackRequest","fields":[
       |  {"name":"partitionPath","type":"string"},
       |  {"name":"fileId","type":$NullableString,"default":null},
       |  {"name":"latestBaseInstant","type":$NullableString,"default":null},
       |  {"name":"filesToBeDeleted","type":{"type":"array","items":"string"},"default":[]},
       |  {"name":"logBlocksToBeDeleted","type":$LongMap,"default":null}]}}],"default":null},
       |{"name":"version","type":["int","null"],"default":1}]}""".stripMargin)

  val RollbackMetadata: Schema = parse(
    s"""{"type":"record","name":"HoodieRollbackMetadata","namespace":"$Namespace","fields":[
       |{"name":"startRollbackTime","type":"string"},
       |{"name":"timeTakenInMillis","type":"long"},
       |{"name":"totalFilesDeleted","type":"int"},
       |{"name":"commitsRollback","type":{"type":"array","items":"string"}},
       |{"name":"partitionMetadata","type":{"type":"map","values":
       |  {"type":"record","name":"HoodieRollbackPartitionMetadata","fields":[
       |  {"name":"partitionPath","type":"string"},
       |  {"name":"successDeleteFiles","type":{"type":"array","items":"string"}},
       |  {"name":"failedDeleteFiles","type":{"type":"array","items":"string"}},
       |  {"name":"rollbackLogFiles","type":$LongMap,"default":null},
       |  {"name":"logFilesFromFailedCommit","type":$LongMap,"default":null}]}}},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"instantsRollback","type":{"type":"array","items":$InstantInfo},"default":[]}]}""".stripMargin)

  val CompactionPlan: Schema = parse(
    s"""{"type":"record","name":"HoodieCompactionPlan","namespace":"$Namespace","fields":[
       |{"name":"operations","type":["null",{"type":"array","items":
       |  {"type":"record","name":"HoodieCompactionOperation","fields":[
       |  {"name":"baseInstantTime","type":$NullableString},
       |  {"name":"deltaFilePaths","type":["null",{"type":"array","items":"string"}],"default":null},
       |  {"name":"dataFilePath","type":$NullableString,"default":null},
       |  {"name":"fileId","type":$NullableString},
       |  {"name":"partitionPath","type":$NullableString,"default":null},
       |  {"name":"metrics","type":["null",{"type":"map","values":"double"}],"default":null},
       |  {"name":"bootstrapFilePath","type":$NullableString,"default":null}]}}],"default":null},
       |{"name":"extraMetadata","type":$StringMap,"default":null},
       |{"name":"version","type":["int","null"],"default":1}]}""".stripMargin)

  val SavepointMetadata: Schema = parse(
    s"""{"type":"record","name":"HoodieSavepointMetadata","namespace":"$Namespace","fields":[
       |{"name":"savepointedBy","type":"string"},
       |{"name":"savepointedAt","type":"long"},
       |{"name":"comments","type":"string"},
       |{"name":"partitionMetadata","type":{"type":"map","values":
       |  {"type":"record","name":"HoodieSavepointPartitionMetadata","fields":[
       |  {"name":"partitionPath","type":"string"},
       |  {"name":"savepointDataFile","type":{"type":"array","items":"string"}}]}}},
       |{"name":"version","type":["int","null"],"default":1}]}""".stripMargin)

  // Hudi declares the union as ["string","null"] with a null default; Avro Java's generated
  // classes accept that, the parser only when default validation is off.
  val RestorePlan: Schema = parse(
    s"""{"type":"record","name":"HoodieRestorePlan","namespace":"$Namespace","fields":[
       |{"name":"instantsToRollback","type":{"type":"array","items":$InstantInfo},"default":[]},
       |{"name":"version","type":["int","null"],"default":2},
       |{"name":"savepointToRestoreTimestamp","type":["string","null"],"default":null}]}""".stripMargin,
    validateDefaults = false)

  val RestoreMetadata: Schema = parse(
    s"""{"type":"record","name":"HoodieRestoreMetadata","namespace":"$Namespace","fields":[
       |{"name":"startRestoreTime","type":"string"},
       |{"name":"timeTakenInMillis","type":"long"},
       |{"name":"instantsToRollback","type":{"type":"array","items":"string"}},
       |{"name":"hoodieRestoreMetadata","type":{"type":"map","values":
       |  {"type":"array","items":["null",${RollbackMetadata.toString}]}}},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"restoreInstantInfo","type":{"type":"array","items":"HoodieInstantInfo"},"default":[]},
       |{"name":"extraMetadata","type":$StringMap,"default":null}]}""".stripMargin)

  /** The clustering plan a replacecommit may request; insert_overwrite leaves it null. */
  private val ClusteringPlan =
    s"""{"type":"record","name":"HoodieClusteringPlan","fields":[
       |{"name":"inputGroups","type":["null",{"type":"array","items":
       |  {"type":"record","name":"HoodieClusteringGroup","fields":[
       |  {"name":"slices","type":["null",{"type":"array","items":
       |    {"type":"record","name":"HoodieSliceInfo","fields":[
       |    {"name":"dataFilePath","type":$NullableString,"default":null},
       |    {"name":"deltaFilePaths","type":["null",{"type":"array","items":"string"}],"default":null},
       |    {"name":"fileId","type":$NullableString},
       |    {"name":"partitionPath","type":$NullableString,"default":null},
       |    {"name":"bootstrapFilePath","type":$NullableString,"default":null},
       |    {"name":"version","type":["int","null"],"default":1}]}}],"default":null},
       |  {"name":"metrics","type":["null",{"type":"map","values":"double"}],"default":null},
       |  {"name":"numOutputFileGroups","type":["int","null"],"default":1},
       |  {"name":"extraMetadata","type":$StringMap,"default":null},
       |  {"name":"version","type":["int","null"],"default":1}]}}],"default":null},
       |{"name":"strategy","type":["null",{"type":"record","name":"HoodieClusteringStrategy","fields":[
       |  {"name":"strategyClassName","type":$NullableString,"default":null},
       |  {"name":"strategyParams","type":$StringMap,"default":null},
       |  {"name":"version","type":["int","null"],"default":1}]}],"default":null},
       |{"name":"extraMetadata","type":$StringMap,"default":null},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"preserveHoodieMetadata","type":["null","boolean"],"default":null}]}""".stripMargin

  val RequestedReplaceMetadata: Schema = parse(
    s"""{"type":"record","name":"HoodieRequestedReplaceMetadata","namespace":"$Namespace","fields":[
       |{"name":"operationType","type":$NullableString,"default":null},
       |{"name":"clusteringPlan","type":["null",$ClusteringPlan],"default":null},
       |{"name":"extraMetadata","type":$StringMap,"default":null},
       |{"name":"version","type":["int","null"],"default":1}]}""".stripMargin)

  private val ActionInstant =
    """{"type":"record","name":"HoodieActionInstant","fields":[
      |{"name":"timestamp","type":"string"},
      |{"name":"action","type":"string"},
      |{"name":"state","type":"string"}]}""".stripMargin

  /** `filesToBeDeletedPerPartition` is Hudi's deprecated form; version 2 plans fill `filePathsToBeDeletedPerPartition`. */
  val CleanerPlan: Schema = parse(
    s"""{"type":"record","name":"HoodieCleanerPlan","namespace":"$Namespace","fields":[
       |{"name":"earliestInstantToRetain","type":["null",$ActionInstant],"default":null},
       |{"name":"policy","type":"string"},
       |{"name":"filesToBeDeletedPerPartition","type":["null",{"type":"map","values":
       |  {"type":"array","items":"string"}}],"default":null},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"filePathsToBeDeletedPerPartition","type":["null",{"type":"map","values":
       |  {"type":"array","items":{"type":"record","name":"HoodieCleanFileInfo","fields":[
       |  {"name":"filePath","type":$NullableString,"default":null},
       |  {"name":"isBootstrapBaseFile","type":["null","boolean"],"default":null}]}}}],"default":null},
       |{"name":"partitionsToBeDeleted","type":["null",{"type":"array","items":"string"}],"default":null}]}""".stripMargin)

  private val CleanPartitionMetadata =
    """{"type":"record","name":"HoodieCleanPartitionMetadata","fields":[
      |{"name":"partitionPath","type":"string"},
      |{"name":"policy","type":"string"},
      |{"name":"deletePathPatterns","type":{"type":"array","items":"string"}},
      |{"name":"successDeleteFiles","type":{"type":"array","items":"string"}},
      |{"name":"failedDeleteFiles","type":{"type":"array","items":"string"}},
      |{"name":"isPartitionDeleted","type":["null","boolean"],"default":null}]}""".stripMargin

  val CleanMetadata: Schema = parse(
    s"""{"type":"record","name":"HoodieCleanMetadata","namespace":"$Namespace","fields":[
       |{"name":"policy","type":"string","default":""},
       |{"name":"startCleanTime","type":"string"},
       |{"name":"timeTakenInMillis","type":"long"},
       |{"name":"totalFilesDeleted","type":"int"},
       |{"name":"earliestCommitToRetain","type":"string"},
       |{"name":"lastCompletedCommitTimestamp","type":"string","default":""},
       |{"name":"partitionMetadata","type":{"type":"map","values":$CleanPartitionMetadata}},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"bootstrapPartitionMetadata","type":["null",{"type":"map","values":"HoodieCleanPartitionMetadata"}],
       |  "default":null}]}""".stripMargin)

  private val NullableLong = """["null","long"]"""

  /** Every `HoodieWriteStat` field is a nullable string or long with a null default. */
  private val WriteStatFields: Seq[(String, String)] = Seq("fileId" -> "string", "path" -> "string",
    "prevCommit" -> "string", "prevFilePathOverwritten" -> "string", "numWrites" -> "long",
    "numDeletes" -> "long", "numUpdateWrites" -> "long", "totalWriteBytes" -> "long",
    "totalWriteErrors" -> "long", "partitionPath" -> "string", "totalLogRecords" -> "long",
    "totalLogFiles" -> "long", "totalUpdatedRecordsCompacted" -> "long", "numInserts" -> "long",
    "totalLogBlocks" -> "long", "totalCorruptLogBlock" -> "long", "totalRollbackBlocks" -> "long",
    "fileSizeInBytes" -> "long")

  private val WriteStat = WriteStatFields.map { case (n, t) =>
    s"""{"name":"$n","type":${if (t == "long") NullableLong else NullableString},"default":null}"""
  }.mkString("""{"type":"record","name":"HoodieWriteStat","fields":[""", ",", "]}")

  /** The Avro form of a commit's JSON metadata, which the archived timeline stores. */
  val CommitMetadata: Schema = parse(
    s"""{"type":"record","name":"HoodieCommitMetadata","namespace":"$Namespace","fields":[
       |{"name":"partitionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":
       |  $WriteStat}}],"default":null},
       |{"name":"extraMetadata","type":$StringMap,"default":null},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"operationType","type":$NullableString,"default":null}]}""".stripMargin)

  /** The fields that follow `HoodieCommitMetadata`'s, as `HoodieReplaceCommitMetadata` has them. */
  private val ReplaceCommitFields =
    s"""{"name":"partitionToWriteStats","type":["null",{"type":"map","values":{"type":"array","items":
       |  "HoodieWriteStat"}}],"default":null},
       |{"name":"extraMetadata","type":$StringMap,"default":null},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"operationType","type":$NullableString,"default":null},
       |{"name":"partitionToReplaceFileIds","type":["null",{"type":"map","values":
       |  {"type":"array","items":"string"}}],"default":null}""".stripMargin

  /**
   * `HoodieArchivedMetaEntry` as Apache Hudi 0.14/0.15 define it: one record per archived state
   * file, `commitTime`, `actionType` and `actionState` plus the field the action's content goes
   * to. Named types are defined at their first use and referred to by name after it.
   */
  val ArchivedMetaEntry: Schema = parse(
    s"""{"type":"record","name":"HoodieArchivedMetaEntry","namespace":"$Namespace","fields":[
       |{"name":"hoodieCommitMetadata","type":["null",${CommitMetadata.toString}],"default":null},
       |{"name":"hoodieCleanMetadata","type":["null",${CleanMetadata.toString}],"default":null},
       |{"name":"hoodieCompactionMetadata","type":["null",{"type":"record","name":"HoodieCompactionMetadata",
       |  "fields":[{"name":"partitionToCompactionWriteStats","type":["null",{"type":"map","values":
       |  {"type":"array","items":{"type":"record","name":"HoodieCompactionWriteStat","fields":[
       |  {"name":"partitionPath","type":$NullableString},
       |  {"name":"totalLogRecords","type":$NullableLong},
       |  {"name":"totalLogFiles","type":$NullableLong},
       |  {"name":"totalUpdatedRecordsCompacted","type":$NullableLong},
       |  {"name":"hoodieWriteStat","type":["null","HoodieWriteStat"]}]}}}]}]}],"default":null},
       |{"name":"hoodieRollbackMetadata","type":["null",${RollbackMetadata.toString}],"default":null},
       |{"name":"hoodieSavePointMetadata","type":["null",${SavepointMetadata.toString}],"default":null},
       |{"name":"commitTime","type":$NullableString,"default":null},
       |{"name":"actionType","type":$NullableString,"default":null},
       |{"name":"version","type":["int","null"],"default":1},
       |{"name":"hoodieCompactionPlan","type":["null",${CompactionPlan.toString}],"default":null},
       |{"name":"hoodieCleanerPlan","type":["null",${CleanerPlan.toString}],"default":null},
       |{"name":"actionState","type":$NullableString,"default":null},
       |{"name":"hoodieReplaceCommitMetadata","type":["null",{"type":"record",
       |  "name":"HoodieReplaceCommitMetadata","fields":[$ReplaceCommitFields]}],"default":null},
       |{"name":"hoodieRequestedReplaceMetadata","type":["null",${RequestedReplaceMetadata.toString}],
       |  "default":null},
       |{"name":"HoodieInflightReplaceMetadata","type":["null","HoodieCommitMetadata"],"default":null},
       |{"name":"hoodieIndexCommitMetadata","type":["null",{"type":"record","name":"HoodieIndexCommitMetadata",
       |  "fields":[{"name":"version","type":["int","null"],"default":1},
       |  {"name":"operationType","type":$NullableString,"default":null},
       |  {"name":"indexPartitionInfos","type":["null",{"type":"array","items":{"type":"record",
       |  "name":"HoodieIndexPartitionInfo","fields":[{"name":"version","type":["int","null"],"default":1},
       |  {"name":"metadataPartitionPath","type":$NullableString,"default":null},
       |  {"name":"indexUptoInstant","type":["null","HoodieInstantInfo"],"default":null}]}}],
       |  "default":null}]}],"default":null},
       |{"name":"stateTransitionTime","type":$NullableString,"default":null}]}""".stripMargin)

  private def parse(json: String, validateDefaults: Boolean = true): Schema =
    new Schema.Parser().setValidateDefaults(validateDefaults).parse(json)
}
