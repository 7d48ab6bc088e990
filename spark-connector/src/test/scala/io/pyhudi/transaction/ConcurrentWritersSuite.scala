// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.io.File
import java.util.concurrent.{Executors, TimeUnit}

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.WriteConflictException
import io.pyhudi.filegroup.PartitionMetafile
import io.pyhudi.table.{HoodieTable, TableType}
import io.pyhudi.timeline.{Action, CommitMetadata, Instant, State, Timeline, TimelineWriter}
import io.pyhudi.write.commit.{Commits, IOType, WriteTransaction}
import io.pyhudi.write.commit.WriteFixtures._

/** Two writers on one table in the default (one writer at a time) mode. */
class ConcurrentWritersSuite extends AnyFunSuite {

  private def committed(table: HoodieTable): String = {
    val tx = new WriteTransaction(table, Action.Commit, "INSERT")
    tx.start(Commits.workloadProfile("INSERT", Map("" -> 1L)))
    val fileId = newFileId()
    tx.markers.create("", s"${fileId}_0-1-0_${tx.instantTime}.parquet", IOType.Create)
    PartitionMetafile.ensure(storage, table.basePath, "", tx.instantTime)
    tx.commit(Seq(writeBaseFile(table, fileId, "0-1-0", tx.instantTime)), Extra)
    tx.instantTime
  }

  private def started(table: HoodieTable): (WriteTransaction, io.pyhudi.timeline.WriteStat) = {
    val tx = new WriteTransaction(table, Action.Commit, "UPSERT")
    tx.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val fileId = newFileId()
    tx.markers.create("", s"${fileId}_0-2-0_${tx.instantTime}.parquet", IOType.Create)
    (tx, writeBaseFile(table, fileId, "0-2-0", tx.instantTime))
  }

  private def heartbeatFile(table: HoodieTable, instant: String) = new File(
    new java.net.URI(Heartbeat.path(table.metaPath, instant)))

  test("changes since a timeline: new and advanced instants count, the own and vanished ones do not") {
    val req = Instant("002", Action.Commit, State.Requested)
    val before = Timeline(Seq(Instant("001", Action.Commit, State.Completed), req))
    assert(ConcurrentChanges.since(before, before).isEmpty)
    val advanced = Timeline(Seq(Instant("001", Action.Commit, State.Completed), req.copy(state = State.Completed)))
    assert(ConcurrentChanges.since(before, advanced) == Seq(Instant("002", Action.Commit, State.Completed)))
    val withNew = Timeline(before.instants :+ Instant("003", Action.DeltaCommit, State.Inflight))
    assert(ConcurrentChanges.since(before, withNew).map(_.timestamp) == Seq("003"))
    assert(ConcurrentChanges.since(before, withNew, own = Some("003")).isEmpty)
    assert(ConcurrentChanges.since(before, Timeline(before.instants.take(1))).isEmpty)
    // A clean changes no latest slice; a savepoint (an instant of its own, sharing a commit's
    // time) changes no file a write sees.
    val cleaned = Timeline(before.instants :+ Instant("004", Action.Clean, State.Completed))
    assert(ConcurrentChanges.since(before, cleaned).isEmpty)
    val savepointed = Timeline(before.instants :+ Instant("001", Action.Savepoint, State.Completed))
    assert(savepointed.instants.size == 3 && savepointed.completedWrites.map(_.timestamp) == Seq("001"))
    assert(ConcurrentChanges.since(before, savepointed).isEmpty)
  }

  test("heartbeat policy: alive within interval x misses") {
    val p = HeartbeatPolicy(1000L, 2)
    assert(p.expiryMs == 2000L && p.isAlive(10000L, 12000L) && !p.isAlive(10000L, 12001L))
  }

  test("a running writer's instant is not rolled back; a second writer fails before doing anything") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val (running, stat) = started(table.reload())
    assert(heartbeatFile(table, running.instantTime).exists())
    assert(WriteTransaction.rollbackFailedWrites(table.reload()).isEmpty, "live heartbeat: not rolled back")
    val e = intercept[WriteConflictException](WriteTransaction.requireNoLiveWriters(table.reload()))
    assert(e.getMessage.contains(running.instantTime) && e.getMessage.contains("heartbeat"))
    // A second transaction planned now still fails at start, naming the running one.
    val second = new WriteTransaction(table.reload(), Action.Commit, "UPSERT")
    val s = intercept[WriteConflictException](second.start(Commits.workloadProfile("UPSERT", Map.empty)))
    assert(s.getMessage.contains(running.instantTime))
    assert(!metaFiles(table).exists(_.startsWith(second.instantTime)))
    running.commit(Seq(stat), Extra)
    assert(!heartbeatFile(table, running.instantTime).exists(), "heartbeat deleted after commit")
    WriteTransaction.requireNoLiveWriters(table.reload())
  }

  test("a writer whose instant time is older than one another writer already started fails at start") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val stale = table.reload()
    val first = new WriteTransaction(stale, Action.Commit, "UPSERT")
    val second = new WriteTransaction(stale, Action.Commit, "UPSERT")
    assert(second.instantTime >= first.instantTime)
    // Both chose their instant; the later one starts (and finishes) first.
    second.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val e = intercept[WriteConflictException](first.start(Commits.workloadProfile("UPSERT", Map.empty)))
    assert(e.getMessage.contains(second.instantTime))
    first.abort(e)
    assert(metaFiles(table).contains(s"${second.instantTime}.inflight"), "the running writer's instant stays")
  }

  test("two writers that chose the same instant time: the second to start fails and leaves the first's instant") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val stale = table.reload()
    val clock = () => 4102444800000L // both processes read the same millisecond
    val a = new WriteTransaction(stale, Action.Commit, "UPSERT", new io.pyhudi.timeline.InstantTimeGenerator(clock))
    val b = new WriteTransaction(stale, Action.Commit, "UPSERT", new io.pyhudi.timeline.InstantTimeGenerator(clock))
    assert(a.instantTime == b.instantTime)
    b.start(Commits.workloadProfile("UPSERT", Map("" -> 1L)))
    val e = intercept[WriteConflictException](a.start(Commits.workloadProfile("UPSERT", Map.empty)))
    a.abort(e)
    assert(metaFiles(table).contains(s"${b.instantTime}.inflight"), "the other writer's instant was rolled back")
    assert(heartbeatFile(table, b.instantTime).exists(), "the other writer's heartbeat was removed")
  }

  test("a write planned before another commit completed fails at start and publishes nothing") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val stale = table.reload()
    val other = committed(stale)
    val tx = new WriteTransaction(stale, Action.Commit, "UPSERT")
    val e = intercept[WriteConflictException](tx.start(Commits.workloadProfile("UPSERT", Map.empty)))
    assert(e.getMessage.contains(other))
    tx.abort(e)
    assert(!metaFiles(table).exists(_.startsWith(tx.instantTime)))
    assert(!heartbeatFile(table, tx.instantTime).exists())
  }

  test("an instant that completes while a write runs fails that write's commit; abort rolls it back") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val (tx, stat) = started(table.reload())
    // Another process (one that ignores the heartbeat, e.g. a misconfigured engine) commits meanwhile.
    val timeline = new TimelineWriter(storage, table.metaPath)
    val foreign = io.pyhudi.timeline.InstantTimeGenerator.Default.next(timeline.stateFiles().map(_.timestamp))
    timeline.requested(foreign, Action.Commit)
    timeline.inflight(foreign, Action.Commit, Commits.workloadProfile("UPSERT", Map.empty).toJson)
    timeline.complete(foreign, Action.Commit,
      CommitMetadata(Nil, Map.empty, Extra, Some("UPSERT"), compacted = false).toJson)
    val e = intercept[WriteConflictException](tx.commit(Seq(stat), Extra))
    assert(e.getMessage.contains(foreign))
    tx.abort(e)
    assert(!table.reload().timeline.completedWriteTimes.contains(tx.instantTime))
    assert(!local(table, stat.path.get).exists(), "its data file was rolled back")
  }

  test("a writer whose instant was rolled back as dead fails at commit") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val (tx, stat) = started(table.reload())
    assert(recover(table.reload()) == Seq(tx.instantTime)) // judged dead by a strict policy
    val e = intercept[WriteConflictException](tx.commit(Seq(stat), Extra))
    assert(e.getMessage.contains("rolled it back"))
    assert(!table.reload().timeline.completedWriteTimes.contains(tx.instantTime))
  }

  test("a dead writer's heartbeat expires and its instant is then rolled back") {
    val table = createTable(TableType.CopyOnWrite)
    committed(table)
    val (tx, _) = started(table.reload())
    val policy = ConcurrencyConfig(HeartbeatPolicy(1000L, 2), 5000L)
    assert(WriteTransaction.rollbackFailedWrites(table.reload(), policy).isEmpty)
    // The writer died 3 s ago: its heartbeat file stopped changing then.
    assert(heartbeatFile(table, tx.instantTime).setLastModified(System.currentTimeMillis() - 3000L))
    assert(WriteTransaction.rollbackFailedWrites(table.reload(), policy) == Seq(tx.instantTime))
    assert(!heartbeatFile(table, tx.instantTime).exists())
  }

  test("the table lock excludes, times out, and is broken when its holder stopped renewing it") {
    val table = createTable(TableType.CopyOnWrite)
    val policy = HeartbeatPolicy(50L, 2)
    val counter = new File(new java.net.URI(s"${table.basePath}/counter"))
    java.nio.file.Files.writeString(counter.toPath, "0")
    // Exclusion under a lease that a loaded machine renews in time (a 100 ms expiry can lapse
    // while a holder's renewal thread waits for a core, which breaks the lock by design).
    val steady = HeartbeatPolicy(1000L, 10)
    val pool = Executors.newFixedThreadPool(4)
    (1 to 4).foreach { _ =>
      pool.submit(new Runnable {
        def run(): Unit = (1 to 10).foreach { _ =>
          TableLock.withLock(storage, table.metaPath, steady, 30000L) {
            val n = java.nio.file.Files.readString(counter.toPath).toInt
            Thread.sleep(1)
            java.nio.file.Files.writeString(counter.toPath, (n + 1).toString)
          }
        }
      })
    }
    pool.shutdown()
    assert(pool.awaitTermination(60, TimeUnit.SECONDS))
    assert(java.nio.file.Files.readString(counter.toPath) == "40", "no lost update under the lock")

    val lock = new File(new java.net.URI(TableLock.path(table.metaPath)))
    val holder = Executors.newSingleThreadExecutor()
    val entered = new java.util.concurrent.CountDownLatch(1)
    val release = new java.util.concurrent.CountDownLatch(1)
    holder.submit(new Runnable {
      def run(): Unit =
        TableLock.withLock(storage, table.metaPath, policy, 1000L) { entered.countDown(); release.await() }
    })
    entered.await()
    val e = intercept[WriteConflictException](TableLock.withLock(storage, table.metaPath, policy, 300L)(()))
    assert(e.getMessage.contains("pyhudi.lock"))
    release.countDown()
    holder.shutdown()
    assert(holder.awaitTermination(10, TimeUnit.SECONDS))
    assert(!lock.exists())

    // A lock file left by a killed process: no renewal for longer than the expiry.
    java.nio.file.Files.writeString(lock.toPath, "dead")
    assert(lock.setLastModified(System.currentTimeMillis() - 1000L))
    assert(TableLock.withLock(storage, table.metaPath, policy, 300L)(42) == 42)
  }
}
