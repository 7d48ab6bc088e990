// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.util.concurrent.{Callable, Executors, TimeUnit}

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.testutil.Corpus
import io.pyhudi.timeline.Action
import io.pyhudi.write.commit.{IOType, WriteTransaction}
import io.pyhudi.write.commit.WriteFixtures._

/** The file-system view over the timeline service answers as the local view does. */
class TableViewSuite extends AnyFunSuite {

  private def withService[T](body: TimelineService => T): T = {
    val service = new TimelineService(storage, TimelineServiceConfig("127.0.0.1"))
    try body(service)
    finally service.close()
  }

  /** Every question, asked of both views, for every partition and at every completed write. */
  private def assertSameAnswers(remote: ViewQueries, local: ViewQueries, context: String): Unit = {
    assert(remote.partitions == local.partitions, context)
    assert(remote.timeline == local.timeline, context)
    assert(remote.allLatestBaseFiles == local.allLatestBaseFiles, context)
    assert(remote.pendingCompactions == local.pendingCompactions, context)
    assert(remote.pendingClusteringGroups == local.pendingClusteringGroups, context)
    val writes = local.timeline.filter(i => i.isCompleted && Action.Writes(i.action)).map(_.timestamp)
    (None +: writes.map(Some(_))).foreach { at =>
      assert(remote.replacedFileGroups(at) == local.replacedFileGroups(at), s"$context at $at")
      local.partitions.foreach { p =>
        assert(remote.latestSlices(p, at) == local.latestSlices(p, at), s"$context $p at $at")
        assert(remote.latestBaseFiles(p, at) == local.latestBaseFiles(p, at), s"$context $p at $at")
      }
    }
    for (p <- local.partitions; b <- local.latestBaseFiles(p, None))
      assert(remote.latestBaseFile(p, b.fileId) == Some(b), s"$context $p ${b.fileId}")
  }

  test("every corpus table (replacecommits, pending compaction, logs, rollbacks) answers alike") {
    val names = Corpus.tables("cow") ++ Corpus.tables("mor")
    assert(names.size >= 10)
    withService { service =>
      names.foreach { name =>
        val path = Corpus.extract(name).toURI.toString.stripSuffix("/")
        service.register(path)
        val remote = new RemoteTableView(service.address, path, None)
        assertSameAnswers(remote, new TableView(storage, path), name)
      }
    }
  }

  /** `n` partitions with `groups` file groups each, one commit. */
  private def manyPartitions(n: Int, groups: Int): (HoodieTable, Seq[(String, String)]) = {
    val table = createTable(TableType.CopyOnWrite)
    val tx = new WriteTransaction(table.reload(), Action.Commit, "INSERT")
    val parts = (0 until n).map(i => f"p$i%03d")
    tx.start(io.pyhudi.write.commit.Commits.workloadProfile("INSERT", parts.map(_ -> 1L).toMap))
    val stats = for (p <- parts; _ <- 0 until groups) yield {
      val id = newFileId()
      PartitionMetafile.ensure(storage, table.basePath, p, tx.instantTime)
      tx.markers.create(p, s"${id}_0-1-0_${tx.instantTime}.parquet", IOType.Create)
      val stat = writeBaseFile(table, id, "0-1-0", tx.instantTime)
      val name = stat.path.get
      java.nio.file.Files.move(local(table, name).toPath, local(table, s"$p/$name").toPath)
      stat.copy(partitionPath = p, path = Some(s"$p/$name"))
    }
    tx.commit(stats, Extra)
    table -> stats.map(s => s.partitionPath -> s.fileId)
  }

  test("250 concurrent lookups from 32 threads answer right and list each partition once") {
    val (table, groups) = manyPartitions(25, 4)
    withService { service =>
      service.register(table.basePath)
      val local = new TableView(storage, table.basePath)
      val rng = new scala.util.Random(7)
      val asks = Seq.fill(250)(groups(rng.nextInt(groups.size)))
      val pool = Executors.newFixedThreadPool(32)
      try {
        val answers = pool.invokeAll(asks.map { case (p, id) =>
          new Callable[Option[String]] {
            def call(): Option[String] =
              new RemoteTableView(service.address, table.basePath, None).latestBaseFile(p, id).map(_.path)
          }
        }.asJava).asScala.map(_.get(60, TimeUnit.SECONDS))
        assert(answers == asks.map { case (p, id) => local.latestBaseFile(p, id).map(_.path) })
        assert(answers.forall(_.isDefined))
      } finally pool.shutdown()
      // The service's shared view listed every asked partition exactly once.
      assert(service.viewOf(table.basePath).get.listings.get() == asks.map(_._1).distinct.size)
      assert(new RemoteTableView(service.address, table.basePath, None).partitions.size == 25)
    }
  }

  test("a caller that knows a newer write makes the service refresh; tasks fall back locally when it is gone") {
    val (table, groups) = manyPartitions(3, 2)
    val first = table.reload().timeline.latestCompletedWrite.get.timestamp
    withService { service =>
      service.register(table.basePath)
      val (p, id) = groups.head
      val before = new RemoteTableView(service.address, table.basePath, Some(first)).latestBaseFile(p, id).get
      // A second commit rewrites that file group.
      val tx = new WriteTransaction(table.reload(), Action.Commit, "UPSERT")
      tx.start(io.pyhudi.write.commit.Commits.workloadProfile("UPSERT", Map(p -> 1L)))
      tx.markers.create(p, s"${id}_0-2-0_${tx.instantTime}.parquet", IOType.Merge)
      val stat = writeBaseFile(table, id, "0-2-0", tx.instantTime)
      val name = stat.path.get
      java.nio.file.Files.move(local(table, name).toPath, local(table, s"$p/$name").toPath)
      tx.commit(Seq(stat.copy(partitionPath = p, path = Some(s"$p/$name"), prevCommit = Some(first))), Extra)
      // Without the new instant the cached view answers as before; with it, the new file.
      assert(new RemoteTableView(service.address, table.basePath, Some(first)).latestBaseFile(p, id).get == before)
      val after = new RemoteTableView(service.address, table.basePath, Some(tx.instantTime)).latestBaseFile(p, id).get
      assert(after.instant == tx.instantTime)
      assertSameAnswers(new RemoteTableView(service.address, table.basePath, Some(tx.instantTime)),
        new TableView(storage, table.basePath), "after the refresh")

      // An unregistered table is refused; the task's view falls back to a local one.
      val other = manyPartitions(1, 1)._1
      val fallbacks = FallbackTableView.fallbacks.get()
      val view = FallbackTableView(storage, other.basePath, Some(service.address), None)
      assert(view.partitions == Seq("p000") && FallbackTableView.fallbacks.get() == fallbacks + 1)
      val address = service.address
      service.close()
      val dead = FallbackTableView(storage, table.basePath, Some(address), Some(tx.instantTime))
      assert(dead.latestBaseFile(p, id).get == after && FallbackTableView.fallbacks.get() == fallbacks + 2)
    }
  }
}
