// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.transaction

import java.util.concurrent.{CountDownLatch, Executors, TimeUnit}

import org.apache.zookeeper.server.{ServerCnxnFactory, ZooKeeperServer}
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.{ErrorId, InvalidOptionException, WriteConflictException}
import io.pyhudi.testutil.TempDirs
import io.pyhudi.write.commit.WriteFixtures._

/** The lock providers of optimistic concurrency control, each against a real second holder. */
class LockProviderSuite extends AnyFunSuite {

  private val occ = Map(WriteConfig.ConcurrencyMode.key -> "optimistic_concurrency_control")

  /** Holds `provider`'s lock in another thread until the returned latch is counted down. */
  private def holdElsewhere(provider: () => LockProvider): CountDownLatch = {
    val taken = new CountDownLatch(1)
    val release = new CountDownLatch(1)
    val pool = Executors.newSingleThreadExecutor(r => new Thread(r, "holder-thread"))
    pool.submit(new Runnable {
      def run(): Unit = LockProvider.withLock(provider(), 5000L, 0) { taken.countDown(); release.await() }
    })
    pool.shutdown()
    assert(taken.await(10, TimeUnit.SECONDS), "the holder never took the lock")
    release
  }

  /** A second taker times out naming the provider and `holderText`, then gets the lock once it is free. */
  private def checkExclusive(provider: () => LockProvider, holderText: String): Unit = {
    val release = holdElsewhere(provider)
    val e = intercept[WriteConflictException](LockProvider.withLock(provider(), 200L, 1)(()))
    assert(e.errorId == ErrorId.LockTimeout.id)
    assert(e.getMessage.contains(provider().name) && e.getMessage.contains("2 attempt(s) of 200 ms"), e.getMessage)
    assert(e.getMessage.contains(holderText), e.getMessage)
    release.countDown()
    assert(LockProvider.withLock(provider(), 5000L, 0)(42) == 42)
  }

  test("options: Apache Hudi's names, OCC infers LAZY failed-write cleaning and refuses EAGER") {
    assert(ConcurrencyConfig.from(Map.empty) == ConcurrencyConfig.Default)
    assert(
      ConcurrencyConfig.Default.failedWrites == FailedWritesCleanPolicy.Eager && !ConcurrencyConfig.Default.optimistic)
    val c = ConcurrencyConfig.from(occ ++ Map(WriteConfig.LockProvider.key ->
        "org.apache.hudi.client.transaction.lock.InProcessLockProvider", WriteConfig.LockNumRetries.key -> "2"))
    assert(c.optimistic && c.failedWrites == FailedWritesCleanPolicy.Lazy)
    assert(c.lock.provider == LockProviderType.InProcess && c.lock.numRetries == 2)
    assert(LockProviderType.parse("ZookeeperBasedLockProvider").contains(LockProviderType.Zookeeper))
    val e = intercept[InvalidOptionException](
      ConcurrencyConfig.from(occ + (WriteConfig.FailedWritesCleanPolicy.key -> "EAGER")))
    assert(e.getMessage.contains("LAZY"))
    intercept[InvalidOptionException](ConcurrencyConfig.from(Map(WriteConfig.LockProvider.key -> "com.example.MyLock")))
    val z = ConcurrencyConfig.from(occ + (WriteConfig.LockProvider.key -> LockProviderType.Zookeeper.className))
    val m = intercept[InvalidOptionException](z.withLock(storage, "/tmp/t/.hoodie")(()))
    assert(m.getMessage.contains(WriteConfig.ZookeeperUrl.key))
    assert(ZookeeperLock.connectString("a, b:2182", 2181) == "a:2181,b:2182")
  }

  test("in-process lock: one per table path; a second thread times out naming the holder thread") {
    val path = s"/tmp/inproc-${System.nanoTime()}"
    checkExclusive(() => new InProcessLock(path), "holder-thread")
    // Another table's lock is independent.
    val release = holdElsewhere(() => new InProcessLock(path))
    assert(LockProvider.withLock(new InProcessLock(path + "x"), 100L, 0)(1) == 1)
    release.countDown()
  }

  test("file-system lock: exclusive, names its holder; an expired or abandoned lock file is broken") {
    val table = createTable(io.pyhudi.table.TableType.CopyOnWrite)
    val lockPath = s"${table.metaPath}/${FileSystemLock.FileName}"
    val steady = HeartbeatPolicy(100L, 50)
    checkExclusive(() => new FileSystemLock(storage, lockPath, steady), "thread=holder-thread")
    assert(!storage.exists(lockPath), "unlock deletes the lock file")
    // Held past hoodie.write.lock.filesystem.expire: the next writer breaks it.
    val held = new FileSystemLock(storage, lockPath, steady)
    assert(held.tryLock(0L))
    assert(!new FileSystemLock(storage, lockPath, steady).tryLock(100L))
    val later = new FileSystemLock(storage, lockPath, steady, expireMs = 60000L,
      clock = () => System.currentTimeMillis() + 61000L)
    assert(later.tryLock(100L))
    held.unlock()
    assert(later.holder.exists(_.contains("thread=")) && storage.exists(lockPath),
      "the expired holder's unlock leaves the lock of the writer that broke it")
    later.unlock()
    assert(!storage.exists(lockPath))
    // A lock file nobody renews (its process was killed) is broken once stale.
    storage.create(lockPath, "owner=gone".getBytes("UTF-8"), overwrite = false)
    assert(new java.io.File(new java.net.URI(lockPath)).setLastModified(System.currentTimeMillis() - 60000L))
    val next = new FileSystemLock(storage, lockPath, steady)
    assert(next.tryLock(1000L))
    next.unlock()
  }

  test("file-system lock: writers breaking one abandoned lock file at once never hold the lock together") {
    val table = createTable(io.pyhudi.table.TableType.CopyOnWrite)
    val lockPath = s"${table.metaPath}/${FileSystemLock.FileName}"
    val steady = HeartbeatPolicy(100L, 50)
    for (round <- 1 to 5) {
      storage.create(lockPath, s"owner=dead-$round".getBytes("UTF-8"), overwrite = false)
      assert(new java.io.File(new java.net.URI(lockPath)).setLastModified(System.currentTimeMillis() - 60000L))
      val inside = new java.util.concurrent.atomic.AtomicInteger()
      val overlaps = new java.util.concurrent.atomic.AtomicInteger()
      val start = new java.util.concurrent.CountDownLatch(1)
      val threads = (1 to 8).map { _ =>
        val t = new Thread(() => {
          start.await()
          val lock = new FileSystemLock(storage, lockPath, steady)
          assert(lock.tryLock(20000L))
          if (inside.incrementAndGet() > 1) overlaps.incrementAndGet()
          Thread.sleep(20)
          inside.decrementAndGet()
          lock.unlock()
        })
        t.start()
        t
      }
      start.countDown()
      threads.foreach(_.join(60000L))
      assert(overlaps.get() == 0, s"round $round: two writers held the lock at once")
      assert(!storage.exists(lockPath))
      assert(!storage.listFiles(table.metaPath).exists(_.name.contains(".broken")), "set-aside lock files stay")
    }
  }

  test(
    "OCC settings: the file-system provider's lock file is .hoodie/lock or under hoodie.write.lock.filesystem.path") {
    val table = createTable(io.pyhudi.table.TableType.CopyOnWrite)
    val c = ConcurrencyConfig.from(occ)
    c.withLock(storage, table.metaPath)(assert(storage.exists(s"${table.metaPath}/lock")))
    val dir = TempDirs.create("pyhudi-locks").toUri.toString.stripSuffix("/")
    val d = ConcurrencyConfig.from(occ + (WriteConfig.LockFilesystemPath.key -> dir))
    d.withLock(storage, table.metaPath)(assert(storage.exists(s"$dir/lock")))
  }

  test("ZooKeeper lock: Curator's mutex on a real ZooKeeper server, exclusive across clients") {
    val dir = TempDirs.create("pyhudi-zk").toFile
    val server = new ZooKeeperServer(dir, dir, 200)
    val factory = ServerCnxnFactory.createFactory(0, 20)
    factory.startup(server)
    try {
      val connect = s"127.0.0.1:${factory.getLocalPort}"
      checkExclusive(() => new ZookeeperLock(connect, "/pyhudi/locks", "t1"), "/pyhudi/locks/t1")
      // Through the options: url, port, base path; the lock key defaults to the table name.
      val (host, port) = (connect.split(':')(0), connect.split(':')(1))
      val c = ConcurrencyConfig.from(occ ++ Map(WriteConfig.LockProvider.key -> LockProviderType.Zookeeper.className,
        WriteConfig.ZookeeperUrl.key -> host, WriteConfig.ZookeeperPort.key -> port,
        WriteConfig.ZookeeperBasePath.key -> "/hudi", WriteConfig.TableName.key -> "orders",
        WriteConfig.LockWaitTime.key -> "300", WriteConfig.LockNumRetries.key -> "0"))
      val release = holdElsewhere(() => new ZookeeperLock(connect, "/hudi", "orders"))
      val e = intercept[WriteConflictException](c.withLock(storage, "/tmp/orders/.hoodie")(()))
      assert(e.getMessage.contains(LockProviderType.Zookeeper.className) && e.getMessage.contains("/hudi/orders"))
      release.countDown()
      assert(c.withLock(storage, "/tmp/orders/.hoodie")(7) == 7)
    } finally factory.shutdown()
  }
}
