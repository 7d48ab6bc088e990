// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.util.UUID

import scala.collection.mutable

import org.apache.spark.{Partitioner, TaskContext}
import org.apache.spark.rdd.RDD

import io.pyhudi.index.bucket.BucketIdentifier
import io.pyhudi.write.{Location, WriteRecord}
import io.pyhudi.write.handle.{AppendHandle, CreateHandle, HandleContext, HandleResult, MergeHandle}
import io.pyhudi.write.plan.{AppendTarget, WritePlan}

/** Runs write handles on the executors; each file group is written by exactly one task. */
object WriteExecution {

  /** Routes records to buckets: one Spark partition per bucket. */
  private final class BucketPartitioner(n: Int) extends Partitioner {
    override def numPartitions: Int = math.max(1, n)
    override def getPartition(key: Any): Int = key.asInstanceOf[Int]
  }

  def writeToken(): String = {
    val t = TaskContext.get()
    s"${t.partitionId()}-${t.stageId()}-${t.taskAttemptId()}"
  }

  /**
   * Upsert, delete, insert and insert_overwrite: records tagged with their current location go
   * to that file group's bucket, the others to the partition's insert buckets. Buckets in
   * `appends` (merge-on-read) get a new log file instead of a rewritten base file.
   */
  def run(tagged: RDD[(WriteRecord, Option[Location])], plan: WritePlan, ctx: HandleContext,
      rollover: Boolean, appends: Map[Int, AppendTarget] = Map.empty): Seq[HandleResult] = {
    if (plan.numBuckets == 0) return Nil
    val routed = tagged.flatMap {
      case (r, Some(loc)) => Some(plan.bucketForUpdate(loc) -> r)
      case (r, None) if !r.isDelete => Some(plan.bucketForInsert(r.partitionPath, r.key) -> r)
      case _ => None // deleting a key the table does not hold
    }
    val byBucket = new org.apache.spark.rdd.ShuffledRDD[Int, WriteRecord, WriteRecord](routed,
      new BucketPartitioner(plan.numBuckets)).setSerializer(RecordSerializer(routed.sparkContext.getConf))
    write(byBucket.map(_._2), plan, ctx, rollover, appends)
  }

  /**
   * BUCKET index: each record goes to the bucket of its key's file group (`locate` of its
   * partition path and key); with `combine`, the same shuffle keeps one record per key.
   * @return the records by bucket: partition i holds bucket i's
   */
  def toBuckets(keyed: RDD[(IncomingRecords.Identity, WriteRecord)], plan: WritePlan,
      locate: (String, String) => Location, combine: Boolean, hasOrdering: Boolean): RDD[WriteRecord] = {
    // The identity of a non-global index, which the bucket index is, is (partition path, key).
    val partitioner = new KeyedBucketPartitioner(plan, locate)
    if (combine) IncomingRecords.deduplicate(keyed, hasOrdering, partitioner).values
    else IncomingRecords.moved(keyed, partitioner).values
  }

  private final class KeyedBucketPartitioner(plan: WritePlan, locate: (String, String) => Location)
      extends Partitioner {
    override def numPartitions: Int = math.max(1, plan.numBuckets)
    override def getPartition(key: Any): Int = {
      val (partitionPath, recordKey) = key.asInstanceOf[IncomingRecords.Identity]
      plan.bucketForUpdate(locate(partitionPath, recordKey))
    }
  }

  /**
   * Runs `job`, whose tasks read `ctx` through the broadcast it gets, then destroys the
   * broadcast. Until the job ends the driver's own `ctx` must stay reachable: the task closures
   * do not hold it, and its base file reader holds Spark's broadcast of the Hadoop
   * configuration, which Spark's context cleaner removes as soon as the driver drops its last
   * reference (tasks then fail to read the broadcast).
   */
  private def withShared[T](sc: org.apache.spark.SparkContext, ctx: HandleContext)(
      job: org.apache.spark.broadcast.Broadcast[ExecutorShared[HandleContext]] => T): T = {
    val shared = ExecutorShared(sc, ctx)
    try job(shared)
    finally {
      shared.destroy()
      java.lang.ref.Reference.reachabilityFence(ctx)
    }
  }

  /**
   * Writes records already split by bucket (partition i holds bucket i's records): a bucket
   * with a base file is merged into (or, in `appends`, gets a log file), a new one is created.
   */
  def write(byBucket: RDD[WriteRecord], plan: WritePlan, ctx: HandleContext, rollover: Boolean,
      appends: Map[Int, AppendTarget]): Seq[HandleResult] = {
    if (plan.numBuckets == 0) return Nil
    withShared(byBucket.sparkContext, ctx) { shared =>
      byBucket.mapPartitionsWithIndex { (i, records) =>
        val ctx = shared.value.value
        val bucket = plan.buckets(i)
        bucket.base match {
          case Some(base) if records.hasNext && appends.contains(i) =>
            val t = appends(i)
            val handle = new AppendHandle(ctx, bucket.partitionPath, bucket.fileId, t.baseInstant,
              t.baseFileName, t.nextLogVersion, writeToken(), i)
            records.foreach(handle.add)
            handle.write().iterator
          case Some(base) if records.hasNext =>
            val handle = new MergeHandle(ctx, base, bucket.partitionPath, writeToken(), i)
            records.foreach(handle.add)
            Iterator.single(handle.write())
          case Some(_) => Iterator.empty
          case None =>
            val handle = new CreateHandle(ctx, bucket.partitionPath, bucket.fileId, writeToken(), i, rollover)
            try {
              records.filterNot(_.isDelete).foreach(handle.write)
              handle.close().iterator
            } catch { case e: Throwable => handle.abort(); throw e }
        }
      }.collect().toSeq
    }
  }

  /**
   * A first load under the bucket index ([[io.pyhudi.write.WriteSpec.bucketLoadInOnePass]]):
   * records go to `numTasks` tasks by (partition path, bucket of `bucketOf(key)`), sorted by it
   * (Spark's sorter spills), so each bucket is written by one task into one new file group of
   * its bucket number, and a task keeps one file open at a time. Deletes are dropped, as in
   * [[bulkInsert]].
   */
  def bucketLoad(records: RDD[WriteRecord], bucketOf: String => Int, numTasks: Int,
      ctx: HandleContext): Seq[HandleResult] = {
    val byGroup = records.filter(!_.isDelete).map(r => ((r.partitionPath, bucketOf(r.key)), r))
    val sorted = new org.apache.spark.rdd.ShuffledRDD[(String, Int), WriteRecord, WriteRecord](byGroup,
      new GroupPartitioner(numTasks)).setKeyOrdering(Ordering.Tuple2[String, Int])
      .setSerializer(RecordSerializer(records.sparkContext.getConf))
    withShared(records.sparkContext, ctx) { shared =>
      sorted.mapPartitionsWithIndex { (i, it) =>
        val ctx = shared.value.value
        val token = writeToken()
        val done = mutable.ArrayBuffer.empty[HandleResult]
        var group: (String, Int) = null
        var handle: CreateHandle = null
        try {
          it.foreach { case (g, r) =>
            if (g != group) {
              if (handle != null) done ++= handle.close()
              group = g
              handle = new CreateHandle(ctx, g._1, BucketIdentifier.newFileId(g._2), token, i, rollover = false)
            }
            handle.write(r)
          }
          if (handle != null) done ++= handle.close()
          done.iterator
        } catch { case e: Throwable => if (handle != null) handle.abort(); throw e }
      }.collect().toSeq
    }
  }

  /** A partition's buckets go to consecutive tasks, so they spread evenly over the tasks. */
  private final class GroupPartitioner(n: Int) extends Partitioner {
    override def numPartitions: Int = math.max(1, n)
    override def getPartition(key: Any): Int = {
      val (partitionPath, bucket) = key.asInstanceOf[(String, Int)]
      Math.floorMod(partitionPath.hashCode + bucket, numPartitions)
    }
  }

  /**
   * bulk_insert: every task writes its records into new file groups. With `clustered` input (a
   * partition path's records are adjacent) a task keeps one file open and closes it when the
   * path changes, as Spark's partitioned writer does; a path seen again starts another file
   * group. Otherwise a task keeps a file open per partition path.
   */
  def bulkInsert(records: RDD[WriteRecord], ctx: HandleContext, clustered: Boolean): Seq[HandleResult] = {
    withShared(records.sparkContext, ctx) { shared =>
      records.mapPartitionsWithIndex { (i, it) =>
        val ctx = shared.value.value
        val open = mutable.LinkedHashMap.empty[String, CreateHandle]
        val done = mutable.ArrayBuffer.empty[HandleResult]
        val token = writeToken()
        var lastPath: String = null
        var last: CreateHandle = null
        def handle(path: String): CreateHandle = if (path == lastPath) last
        else {
          lastPath = path
          last = open.getOrElse(path, {
              if (clustered) {
                open.values.foreach(done ++= _.close())
                open.clear()
              }
              val h = new CreateHandle(ctx, path, s"${UUID.randomUUID()}-0", token, i)
              open(path) = h
              h
            })
          last
        }
        try {
          it.foreach(r => if (!r.isDelete) handle(r.partitionPath).write(r))
          open.values.foreach(done ++= _.close())
          done.iterator
        } catch { case e: Throwable => open.values.foreach(_.abort()); throw e }
      }.collect().toSeq
    }
  }
}
