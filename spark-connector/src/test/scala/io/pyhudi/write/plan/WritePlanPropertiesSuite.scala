// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.plan

import scala.util.Random

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.{BaseFile, FileGroupId, FileSlice, LogFile}
import io.pyhudi.index.bucket.BucketIdentifier
import io.pyhudi.write.Location

/**
 * Property-style tests of write planning: hundreds of seeded random inputs, each checked
 * against invariants that every plan must keep, whatever its shape.
 */
class WritePlanPropertiesSuite extends AnyFunSuite {

  private val Cases = 300

  private def base(p: String, id: String, size: Long, instant: String = "001") =
    BaseFile(s"/t/$p/${id}_0-1-1_$instant.parquet", id, "0-1-1", instant, size)

  private def forAll(name: String)(check: Random => Unit): Unit =
    (0 until Cases).foreach { seed =>
      val rnd = new Random(seed)
      try check(rnd)
      catch { case e: Throwable => fail(s"$name: seed $seed: ${e.getMessage}", e) }
    }

  /** Records each bucket takes of a partition's inserts, recovered from the cumulative shares. */
  private def takes(plan: WritePlan, partition: String, count: Long): Seq[(Int, Long)] = {
    val targets = plan.insertTargets(partition)
    val cumulative = targets.map { case (b, share) => b -> math.round(share * count) }
    cumulative.zip(0L +: cumulative.map(_._2)).map { case ((b, upTo), from) => b -> (upTo - from) }
  }

  test("insert planning: inserts conserved, small files filled within their room, new groups within size") {
    forAll("insert planning") { rnd =>
      val sizing = FileSizing(smallFileLimit = 1 + rnd.nextInt(1000), maxFileSize = 1000 + rnd.nextInt(1000),
        avgRecordSize = 1 + rnd.nextInt(50))
      val partitions = (0 until 1 + rnd.nextInt(4)).map(i => s"p$i")
      val bases =
        partitions.map(p => p -> (0 until rnd.nextInt(5)).map(i => base(p, s"$p-f$i", rnd.nextInt(2000)))).toMap
      val inserts = partitions.filter(_ => rnd.nextBoolean()).map(p => p -> rnd.nextInt(500).toLong).toMap
      val updates = bases.toSeq.flatMap { case (p, bs) =>
        bs.filter(_ => rnd.nextBoolean()).map(b => Location(p, b.fileId) -> b)
      }.toMap
      var n = 0
      val useSmall = rnd.nextInt(4) > 0
      val plan = WritePlanner.plan(updates, inserts, bases, sizing, () => { n += 1; s"new-$n" }, useSmall)

      assert(plan.buckets.map(_.index) == plan.buckets.indices, "bucket indices are positions")
      val groups = plan.buckets.map(b => (b.partitionPath, b.fileId))
      assert(groups.distinct.size == groups.size, "one bucket per file group")
      updates.foreach { case (loc, b) =>
        val bucket = plan.buckets(plan.bucketForUpdate(loc))
        assert(bucket.partitionPath == loc.partitionPath && bucket.fileId == loc.fileId && bucket.base.contains(b))
      }
      inserts.foreach { case (p, count) =>
        if (count == 0) assert(!plan.insertTargets.contains(p))
        else {
          val shares = plan.insertTargets(p).map(_._2)
          assert(shares.last == 1.0 && shares.zip(shares.tail).forall { case (a, b) => a < b } && shares.head > 0)
          val taken = takes(plan, p, count)
          assert(taken.map(_._2).sum == count, "every insert has a bucket")
          taken.foreach { case (i, k) =>
            val b = plan.buckets(i)
            assert(b.partitionPath == p, "inserts stay in their partition")
            b.base match {
              case Some(small) =>
                assert(useSmall && small.size < sizing.smallFileLimit, s"${small.fileId} is not a small file")
                assert(k <= (sizing.maxFileSize - small.size) / sizing.avgRecordSize, "small file overfilled")
              case None => assert(k <= sizing.recordsPerFile, "new file group over its size")
            }
          }
          val routed = (0 until 50).map(i => plan.bucketForInsert(p, s"k$i"))
          assert(routed.forall(taken.map(_._1).contains), "records route to the partition's insert buckets")
        }
      }
    }
  }

  test("bucket routing: one bucket per (partition, bucket number), existing groups kept, new ids numbered") {
    forAll("bucket routing") { rnd =>
      val partitions = (0 until 1 + rnd.nextInt(3)).map(i => s"p$i")
      val numBuckets = 1 + rnd.nextInt(8)
      val existing = partitions.flatMap { p =>
        (0 until numBuckets).filter(_ => rnd.nextBoolean())
          .map(id => p -> base(p, BucketIdentifier.newFileId(id), rnd.nextInt(1000)))
      }
      val groups = Seq.fill(1 + rnd.nextInt(20))((partitions(rnd.nextInt(partitions.size)), rnd.nextInt(numBuckets)))
      val fresh = rnd.nextInt(5) == 0
      val (plan, locations) = BucketRouting.plan(groups, existing, fresh)

      assert(plan.buckets.size == groups.distinct.size && locations.keySet == groups.toSet)
      assert(plan.buckets.map(_.index) == plan.buckets.indices && plan.insertTargets.isEmpty)
      groups.distinct.foreach { case g @ (p, id) =>
        val loc = locations(g)
        val b = plan.buckets(plan.bucketForUpdate(loc))
        assert(b.partitionPath == p && BucketIdentifier.bucketOf(b.fileId).contains(id), s"$g routed to ${b.fileId}")
        val old = existing.find { case (q, f) => q == p && BucketIdentifier.bucketOf(f.fileId).contains(id) }.map(_._2)
        if (fresh || old.isEmpty) assert(b.isNew && !old.exists(_.fileId == b.fileId), s"$g must open a new group")
        else assert(b.base == old && b.fileId == old.get.fileId, s"$g must keep its file group")
      }
    }
  }

  test("append targets: logs go one version above the slice's newest; small-file rewrites take no log") {
    forAll("append targets") { rnd =>
      val p = "p"
      val slices = (0 until 1 + rnd.nextInt(6)).map { i =>
        val b = base(p, s"f$i", 100, instant = "00" + (1 + rnd.nextInt(3)))
        val logs = (1 to rnd.nextInt(4)).map { v =>
          val instant = if (rnd.nextInt(5) == 0) "000" else b.instant // a log of an older slice
          LogFile(s"/t/$p/.f${i}_$instant.log.${v}_0-1-1", s"f$i", instant, v, "0-1-1", 10)
        }
        FileSlice(FileGroupId(p, b.fileId), b.instant, Some(b), logs.filter(_.baseInstant == b.instant))
      }
      val files = TableFiles(Map(p -> slices))
      val updated = slices.filter(_ => rnd.nextBoolean())
      val withInserts = slices.filter(s => !s.hasLogs && rnd.nextBoolean())
      var n = 0
      val plan = WritePlanner.plan(updated.map(s => Location(p, s.groupId.fileId) -> s.baseFile.get).toMap,
        Map(p -> withInserts.size.toLong * 2), Map(p -> withInserts.flatMap(_.baseFile)),
        FileSizing(1000, 200, 50), () => { n += 1; s"new-$n" })
      val everyGroupLogs = rnd.nextBoolean()
      val targets = AppendTarget.plan(plan, files, everyGroupLogs)
      val insertBuckets = plan.insertTargets.values.flatten.map(_._1).toSet
      plan.buckets.foreach { b =>
        val slice = slices.find(_.groupId.fileId == b.fileId)
        (targets.get(b.index), slice) match {
          case (None, None) => assert(b.isNew)
          case (Some(_), None) => fail(s"new group ${b.fileId} got a log target")
          case (Some(t), Some(s)) =>
            assert(everyGroupLogs || !insertBuckets(b.index), s"${b.fileId} takes inserts and must be rewritten")
            val newest = s.logFiles.map(_.version).maxOption.getOrElse(0)
            assert(
              t.baseInstant == s.baseInstant && t.nextLogVersion == newest + 1 && t.baseFileName == s.baseFile.get.name)
          case (None, Some(_)) => assert(!everyGroupLogs && insertBuckets(b.index), s"${b.fileId} lost its log target")
        }
      }
    }
  }
}
