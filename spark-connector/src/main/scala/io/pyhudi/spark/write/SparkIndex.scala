// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import org.apache.spark.SparkContext
import org.apache.spark.rdd.{RDD, ShuffledRDD}
import org.apache.spark.sql.types.{StringType, StructField, StructType}
import org.apache.spark.unsafe.types.UTF8String
import org.apache.spark.util.LongAccumulator
import org.apache.spark.util.sketch.BloomFilter

import io.pyhudi.errors.Errors
import io.pyhudi.filegroup.BaseFile
import io.pyhudi.index.{IndexLookup, IndexType, KeySet, LocationJoin, Tag, TagResolution}
import io.pyhudi.index.bloom.{BaseFileFooter, KeyRanges}
import io.pyhudi.schema.MetaFields
import io.pyhudi.spark.shims.ParquetReaderShim
import io.pyhudi.spark.shims.ParquetReaderShim.FileReader
import io.pyhudi.storage.SerializableConfiguration
import io.pyhudi.write.plan.TableFiles
import io.pyhudi.write.{Location, WriteRecord, WriteSpec}

/**
 * An index as Spark jobs: tags every incoming record with the file group that already holds its
 * key (Apache Hudi's `HoodieIndex.tagLocation`); only per-file metadata (key ranges) reaches the
 * driver. One implementation per lookup strategy of [[io.pyhudi.index.IndexType]]; what a found
 * key means (update, move, update in place) is decided by [[io.pyhudi.index.TagResolution]].
 * The BUCKET index needs no lookup: `write.plan.BucketRouting` routes its records.
 */
sealed abstract class SparkIndex(sc: SparkContext, spec: WriteSpec, files: TableFiles) {

  protected val indexed: IndexedSeq[(String, BaseFile)] = files.all.toIndexedSeq

  // What the lookup's tasks did, for the commit's extraMetadata (IndexLookup). Counted once:
  // the tagged records are persisted before the lookup runs.
  protected val filesInRange = sc.longAccumulator("pyhudi.index.files.in.range")
  protected val filesProbed = sc.longAccumulator("pyhudi.index.files.probed")
  protected val keysRead = sc.longAccumulator("pyhudi.index.keys.read")
  protected val bloomChecks = sc.longAccumulator("pyhudi.index.bloom.checks")
  protected val bloomPositives = sc.longAccumulator("pyhudi.index.bloom.positives")

  /**
   * (key, location) of the stored keys that incoming `records` may match, and whether they are
   * bounded by the records: at most one per incoming key plus a filter's false positives.
   */
  protected def found(records: RDD[WriteRecord]): (RDD[(String, Location)], Boolean)

  protected def parallelism: Int = math.max(1, math.min(indexed.size, sc.defaultParallelism * 2))

  /** @param keyed incoming records keyed by `IncomingRecords.identity` */
  final def tag(keyed: RDD[(IncomingRecords.Identity, WriteRecord)]): RDD[(WriteRecord, Option[Location])] =
    if (indexed.isEmpty) keyed.map { case (_, r) => (r, None) }
    else {
      val (stored, bounded) = found(keyed.values)
      join(keyed, stored, bounded)
    }

  /**
   * The lookup's figures once its tagged records have been counted (`tagging`), which runs it.
   * With no base file to search, nothing was read and every figure but the found records is 0.
   * @param millis wall time from the start of [[tag]] to the end of that count
   */
  final def lookup(millis: Long, tagging: io.pyhudi.write.plan.Tagging): IndexLookup = {
    val inRange = if (spec.indexType.usesBloomFilters) filesInRange.sum else filesProbed.sum
    IndexLookup(spec.indexType, millis, indexed.size.toLong, inRange, filesProbed.sum,
      tagging.updated.size.toLong, keysRead.sum, bloomChecks.sum, bloomPositives.sum, tagging.located)
  }

  private def join(keyed: RDD[(IncomingRecords.Identity, WriteRecord)], found: RDD[(String, Location)],
      bounded: Boolean): RDD[(WriteRecord, Option[Location])] = {
    val indexType = spec.indexType
    val move = spec.updatePartitionPath
    // De-duplicated records are already hash-partitioned by identity: joining with that
    // partitioner moves only the found keys, not the records.
    val partitioner = keyed.partitioner.getOrElse(new org.apache.spark.HashPartitioner(keyed.getNumPartitions))
    // The found keys cross the shuffle with the records' serializer; already partitioned like
    // the records, the join itself moves nothing.
    val stored = new ShuffledRDD[IncomingRecords.Identity, Location, Location](
      found.map { case (k, l) => (TagResolution.lookupKey(indexType.isGlobal, l.partitionPath, k), l) },
      partitioner).setSerializer(RecordSerializer(sc.getConf))
    val joined =
      if (bounded) {
        // A hash join, the found locations as its table (index.LocationJoin). Records that were
        // not de-duplicated are moved to the found keys' partitions first.
        val records =
          if (keyed.partitioner.contains(partitioner)) keyed
          else IncomingRecords.moved(keyed, partitioner)
        records.zipPartitions(stored)((rs, fs) => LocationJoin.leftOuter(rs, fs))
      } else keyed.leftOuterJoin(stored, partitioner).values
    joined.flatMap { case (r, at) =>
      TagResolution.resolve(indexType, r.partitionPath, at, move) match {
        case Tag.Insert => Iterator.single(r -> None)
        case Tag.Update(l) => Iterator.single(r -> Some(l))
        case Tag.Move(from) =>
          val delete = r.copy(partitionPath = from.partitionPath, isDelete = true)
          Iterator(delete -> Some(from)) ++ (if (r.isDelete) Iterator.empty else Iterator.single(r -> None))
        case Tag.UpdateInPlace(l) => Iterator.single(r.copy(partitionPath = l.partitionPath) -> Some(l))
      }
    }
  }
}

object SparkIndex {
  val KeySchema: StructType = StructType(Seq(StructField(MetaFields.RecordKey, StringType)))

  /** The lookup of `spec.indexType`; not for the bucket index, which has none. */
  def apply(sc: SparkContext, spec: WriteSpec, files: TableFiles, keyReader: FileReader,
      conf: SerializableConfiguration): SparkIndex = spec.indexType match {
    case IndexType.Bloom | IndexType.GlobalBloom => new BloomIndex(sc, spec, files, keyReader, conf)
    case IndexType.Simple | IndexType.GlobalSimple => new SimpleIndex(sc, spec, files, keyReader)
    case IndexType.Bucket =>
      throw Errors.internal("the bucket index has no lookup; route with write.plan.BucketRouting")
  }

  /** [[storedKeys]], counted into the lookup's figures as they are read. */
  def probe(
      reader: FileReader, base: BaseFile, probed: LongAccumulator, read: LongAccumulator): Iterator[UTF8String] = {
    probed.add(1L)
    storedKeys(reader, base).map { k => read.add(1L); k }
  }

  def keysOf(reader: FileReader, base: BaseFile): Iterator[String] = storedKeys(reader, base).map(_.toString)

  /** The record keys of a base file as UTF-8 strings, each valid until the next one is read. */
  def storedKeys(reader: FileReader, base: BaseFile): Iterator[UTF8String] =
    reader(ParquetReaderShim.partitionedFile(base.path, 0L, base.size, base.size))
      .filter(r => !r.isNullAt(0)).map(_.getUTF8String(0))
}

/**
 * SIMPLE, GLOBAL_SIMPLE: every key stored in the candidate partitions' latest base files. Before
 * the stored keys are shuffled to the join, a bloom filter of the incoming keys drops those no
 * incoming record can match: a 1% upsert then moves about 2% of the table's keys, not all.
 */
final class SimpleIndex(sc: SparkContext, spec: WriteSpec, files: TableFiles, keyReader: FileReader)
    extends SparkIndex(sc, spec, files) {

  protected def found(records: RDD[WriteRecord]): (RDD[(String, Location)], Boolean) = {
    val reader = keyReader
    val filter = SimpleIndex.incomingKeys(records)
    val incoming = sc.broadcast(filter)
    val (probed, read) = (filesProbed, keysRead)
    val stored = sc.parallelize(indexed, parallelism).flatMap { case (partition, base) =>
      val filter = incoming.value
      SparkIndex.probe(reader, base, probed, read)
        .filter(k => filter.forall(_.mightContainBinary(k.getBytes)))
        .map(k => (k.toString, Location(partition, base.fileId)))
    }
    // Unfiltered, every stored key of the candidate partitions is found: too many to hash.
    (stored, filter.isDefined)
  }
}

object SimpleIndex {

  /** False positives let through stored keys the join then finds unmatched; 1% is cheap. */
  val FalsePositiveRate = 0.01

  /**
   * Above this many incoming records the filter (about 1.2 bytes a key at 1%) would no longer be
   * metadata-sized on the driver, and most stored keys would match anyway: no filter.
   */
  val MaxFilteredRecords = 10000000L

  /**
   * A bloom filter of the records' keys (the record key alone: a superset for both scopes);
   * None: no filter.
   */
  def incomingKeys(records: RDD[WriteRecord]): Option[BloomFilter] = {
    val n = records.count()
    if (n > MaxFilteredRecords) None
    else Some(records.treeAggregate(BloomFilter.create(math.max(n, 1L), FalsePositiveRate))(
        (f, r) => { f.putString(r.key); f },
        (a, b) => a.mergeInPlace(b)))
  }
}

/**
 * BLOOM, GLOBAL_BLOOM: per key, the files whose footer key range contains it
 * (index.bloom.KeyRanges), probed with their bloom filters, positives confirmed against the
 * files' actual keys.
 */
final class BloomIndex(sc: SparkContext, spec: WriteSpec, files: TableFiles, keyReader: FileReader,
    conf: SerializableConfiguration) extends SparkIndex(sc, spec, files) {

  protected def found(records: RDD[WriteRecord]): (RDD[(String, Location)], Boolean) = {
    val c = conf
    val bases = indexed
    val ranges = sc.parallelize(bases.indices, parallelism).map { i =>
      val (minKey, maxKey) = BaseFileFooter.readRange(c.value, bases(i)._2.path)
      (i, bases(i)._1, minKey, maxKey)
    }.collect()
    val bcRanges = sc.broadcast(new KeyRanges(ranges.toSeq, spec.isGlobalIndex, spec.pruneByRanges))
    val candidates = records.flatMap(r => bcRanges.value.candidates(r.partitionPath, r.key).map(i => (i, r.key)))
    val reader = keyReader
    val (inRange, checks, positives, probed, read) = (filesInRange, bloomChecks, bloomPositives, filesProbed, keysRead)
    // Positives are confirmed against the files' keys: only keys some record holds are found.
    val stored = candidates.groupByKey(parallelism).flatMap { case (i, keys) =>
      val (partition, base) = bases(i)
      val bloom = BaseFileFooter.read(c.value, base.path).bloom
      // Stored keys are compared as UTF-8 bytes: only the keys found are decoded.
      val passed = new java.util.ArrayList[UTF8String]()
      var n = 0L
      keys.foreach { k => n += 1; if (bloom.forall(_.mightContain(k))) passed.add(UTF8String.fromString(k)) }
      val maybe = new KeySet(passed)
      inRange.add(1L)
      checks.add(n)
      positives.add(maybe.size.toLong)
      if (maybe.isEmpty) Iterator.empty
      else SparkIndex.probe(reader, base, probed, read).filter(maybe.contains)
        .map(k => (k.toString, Location(partition, base.fileId)))
    }
    (stored, true)
  }
}
