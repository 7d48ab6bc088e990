package io.pyhudi.spark.write

import org.apache.spark.SparkContext
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.types.{StringType, StructField, StructType}

import io.pyhudi.filegroup.BaseFile
import io.pyhudi.index.bloom.{BaseFileFooter, KeyRanges}
import io.pyhudi.schema.MetaFields
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.spark.shims.ParquetReaderShim.FileReader
import io.pyhudi.storage.SerializableConfiguration
import io.pyhudi.write.plan.TableFiles
import io.pyhudi.write.{Location, WriteRecord, WriteSpec}

/**
 * Finds the file group of every incoming key that the table already holds (Apache Hudi's
 * `tagLocation`), as Spark jobs; only per-file metadata (key ranges) reaches the driver.
 *  - SIMPLE: joins incoming keys with the keys stored in the affected partitions' base files.
 *  - BLOOM: keeps, per key, the files whose key range contains it, probes their bloom filters,
 *    and confirms the positives against the files' actual keys.
 * GLOBAL_* variants match on the key alone across all partitions.
 */
final class IndexLookup(sc: SparkContext, spec: WriteSpec, files: TableFiles,
    keyReader: FileReader, conf: SerializableConfiguration) {

  private val indexed: IndexedSeq[(String, BaseFile)] = files.all.toIndexedSeq

  /** @param keyed incoming records keyed by `IncomingRecords.identity` */
  def tag(keyed: RDD[(IncomingRecords.Identity, WriteRecord)]): RDD[(WriteRecord, Option[Location])] =
    if (indexed.isEmpty) keyed.map { case (_, r) => (r, None) }
    else {
      val found = if (spec.isBloomIndex) bloomLookup(keyed.values) else storedKeys()
      join(keyed, found)
    }

  private def parallelism: Int = math.max(1, math.min(indexed.size, sc.defaultParallelism * 2))

  /** (key, location) of every key stored in the latest base files. */
  private def storedKeys(): RDD[(String, Location)] = {
    val reader = keyReader
    sc.parallelize(indexed, parallelism).flatMap { case (partition, base) =>
      IndexLookup.keysOf(reader, base).map(k => (k, Location(partition, base.fileId)))
    }
  }

  private def bloomLookup(records: RDD[WriteRecord]): RDD[(String, Location)] = {
    val c = conf
    val bases = indexed
    val ranges = sc.parallelize(bases.indices, parallelism).map { i =>
      val footer = BaseFileFooter.read(c.value, bases(i)._2.path)
      (i, bases(i)._1, footer.minKey, footer.maxKey)
    }.collect()
    val bcRanges = sc.broadcast(new KeyRanges(ranges.toSeq, spec.isGlobalIndex, spec.pruneByRanges))
    val candidates = records.flatMap(r => bcRanges.value.candidates(r.partitionPath, r.key).map(i => (i, r.key)))
    val reader = keyReader
    candidates.groupByKey(parallelism).flatMap { case (i, keys) =>
      val (partition, base) = bases(i)
      val bloom = BaseFileFooter.read(c.value, base.path).bloom
      val maybe = keys.toSet.filter(k => bloom.forall(_.mightContain(k)))
      if (maybe.isEmpty) Iterator.empty
      else IndexLookup.keysOf(reader, base).filter(maybe).map(k => (k, Location(partition, base.fileId)))
    }
  }

  /**
   * Attaches locations. For global indexes a key found in another partition either moves
   * (a delete at the old location plus an insert) or is updated where it is.
   */
  private def join(keyed: RDD[(IncomingRecords.Identity, WriteRecord)], found: RDD[(String, Location)])
      : RDD[(WriteRecord, Option[Location])] = {
    val global = spec.isGlobalIndex
    // De-duplicated records are already hash-partitioned by identity: joining with that
    // partitioner moves only the found keys, not the records.
    val partitioner = keyed.partitioner.getOrElse(new org.apache.spark.HashPartitioner(keyed.getNumPartitions))
    val joined = keyed.leftOuterJoin(found.map { case (k, l) => ((if (global) "" else l.partitionPath, k), l) },
      partitioner).values
    if (!global) joined
    else {
      val move = spec.updatePartitionPath
      joined.flatMap {
        case (r, Some(l)) if l.partitionPath != r.partitionPath =>
          if (move) {
            val delete = r.copy(partitionPath = l.partitionPath, isDelete = true)
            Seq(delete -> Some(l)) ++ (if (r.isDelete) Nil else Seq(r -> None))
          } else Seq(r.copy(partitionPath = l.partitionPath) -> Some(l))
        case other => Seq(other)
      }
    }
  }
}

object IndexLookup {
  val KeySchema: StructType = StructType(Seq(StructField(MetaFields.RecordKey, StringType)))

  def keysOf(reader: FileReader, base: BaseFile): Iterator[String] =
    reader(ParquetReaderShim.partitionedFile(base.path, 0L, base.size, base.size))
      .filter(r => !r.isNullAt(0)).map(_.getUTF8String(0).toString)
}
