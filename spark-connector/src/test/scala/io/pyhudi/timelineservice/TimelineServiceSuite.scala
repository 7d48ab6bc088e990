// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timelineservice

import java.io.IOException
import java.nio.charset.StandardCharsets.UTF_8
import java.util.concurrent.{Callable, Executors, TimeUnit}

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.table.TableType
import io.pyhudi.write.commit.{IOType, Marker, Markers}
import io.pyhudi.write.commit.WriteFixtures._

/** The marker side of the timeline service over real HTTP and local files (hudi-format.md §7). */
class TimelineServiceSuite extends AnyFunSuite {

  private def withService[T](numFiles: Int = 3)(body: TimelineService => T): T = {
    val service = new TimelineService(storage, TimelineServiceConfig("127.0.0.1", 0, numFiles, 20L))
    try body(service)
    finally service.close()
  }

  private def topFiles(folder: String): Map[String, String] =
    storage.listFiles(folder).map(f => f.name -> new String(storage.readAll(f.path), UTF_8)).toMap

  test("a commit deletes the files of failed task attempts named only in MARKERS<n> files") {
    import io.pyhudi.timeline.Action
    import io.pyhudi.write.commit.{Commits, WriteTransaction}
    val table = createTable(TableType.CopyOnWrite)
    withService() { service =>
      service.register(table.basePath)
      val tx = new WriteTransaction(table, Action.Commit, "INSERT")
      tx.start(Commits.workloadProfile("INSERT", Map("" -> 2L)))
      val writer = new TimelineServerMarkers(new TimelineServiceClient(service.address), tx.markers)
      val fileId = newFileId()
      val attempts = Seq("0-3-0", "0-3-1").map { token =>
        writer.create("", s"${fileId}_${token}_${tx.instantTime}.parquet", IOType.Create)
        writeBaseFile(table, fileId, token, tx.instantTime)
      }
      val orphan = newFileId()
      writer.create("", s"${orphan}_0-4-0_${tx.instantTime}.parquet", IOType.Create)
      val orphanFile = writeBaseFile(table, orphan, "0-4-0", tx.instantTime).path.get
      assert(storage.listFilesRecursively(tx.markers.folder).forall(f => !f.path.contains(Markers.Infix)),
        "every marker went through the service")
      tx.commit(Seq(attempts(1)), Extra)
      assert(!local(table, attempts.head.path.get).exists() && !local(table, orphanFile).exists())
      assert(local(table, attempts(1).path.get).exists())
      assert(snapshot(table.reload()).slices.map(_.baseFile.get.name) == Seq(attempts(1).path.get))
      assert(!storage.exists(tx.markers.folder), "the marker folder goes with the commit")
    }
  }

  test("200+ concurrent marker requests land in MARKERS<n> files that Markers.list reads back") {
    val table = createTable(TableType.CopyOnWrite)
    withService() { service =>
      service.register(table.basePath)
      val markers = new Markers(storage, table.basePath, "20261123101010101")
      val writer = new TimelineServerMarkers(new TimelineServiceClient(service.address), markers)
      val wanted = (0 until 240).map { i =>
        Marker(s"p${i % 4}", s"${newFileId()}_0-1-${i}_20261123101010101.parquet",
          if (i % 3 == 0) IOType.Merge
          else IOType.Create)
      }
      val pool = Executors.newFixedThreadPool(32)
      try {
        val done = pool.invokeAll(wanted.map(m =>
            new Callable[Marker] { def call(): Marker = writer.create(m.partitionPath, m.fileName, m.ioType) }).asJava)
        assert(done.asScala.map(_.get(30, TimeUnit.SECONDS)) == wanted)
      } finally pool.shutdown()

      // Hudi's layout: MARKERS.type and at most numFiles batch files, one marker name per line.
      val files = topFiles(markers.folder)
      assert(files(Markers.TypeFile) == "TIMELINE_SERVER_BASED")
      val batches = files.keySet - Markers.TypeFile
      assert(batches.nonEmpty && batches.subsetOf(Set("MARKERS0", "MARKERS1", "MARKERS2")))
      val lines = batches.toSeq.flatMap(b => files(b).split('\n').toSeq)
      assert(lines.sorted == wanted.map(_.markerName).sorted)
      assert(batches.forall(b => files(b).endsWith("\n")))
      // No direct marker was needed.
      assert(storage.listFilesRecursively(markers.folder).forall(f => !f.path.contains(Markers.Infix)))
      assert(markers.list().toSet == wanted.toSet)

      // A marker sent twice is stored once; the listing endpoint sees all of them.
      val client = new TimelineServiceClient(service.address)
      assert(!client.createMarker(markers.folder, wanted.head.markerName))
      assert(client.allMarkers(markers.folder).count(_ == '"') == 2 * wanted.size)
      assert(client.markerDirExists(markers.folder))
      assert(client.deleteMarkerDir(markers.folder) && !storage.exists(markers.folder))
    }
  }

  test("a restarted service continues the batch files another service wrote") {
    val table = createTable(TableType.MergeOnRead)
    val markers = new Markers(storage, table.basePath, "20261123101010102")
    val first = Marker("p", s"${newFileId()}_0-1-0_20261123101010102.parquet", IOType.Create)
    val second = Marker("p", s".${newFileId()}_20261123101010100.log.1_0-1-0", IOType.Append)
    withService(numFiles = 1) { s =>
      s.register(table.basePath)
      new TimelineServiceClient(s.address).createMarker(markers.folder, first.markerName)
    }
    withService(numFiles = 1) { s =>
      s.register(table.basePath)
      new TimelineServiceClient(s.address).createMarker(markers.folder, second.markerName)
    }
    assert(topFiles(markers.folder)("MARKERS0").split('\n').toSet == Set(first.markerName, second.markerName))
    assert(markers.list().toSet == Set(first, second))
  }

  test("a half-replaced batch file (MARKERS<n>.tmp left by a crash) still counts") {
    val table = createTable(TableType.CopyOnWrite)
    val markers = new Markers(storage, table.basePath, "20261123101010103")
    val m = Marker("", s"${newFileId()}_0-1-0_20261123101010103.parquet", IOType.Create)
    storage.create(s"${markers.folder}/${Markers.TypeFile}", "TIMELINE_SERVER_BASED".getBytes(UTF_8))
    storage.create(s"${markers.folder}/MARKERS0.tmp", s"${m.markerName}\n".getBytes(UTF_8))
    assert(markers.list() == Seq(m))
  }

  test("only the registered tables' marker folders are served; bad names are refused") {
    val table = createTable(TableType.CopyOnWrite)
    val other = createTable(TableType.CopyOnWrite)
    withService() { service =>
      service.register(table.basePath)
      val client = new TimelineServiceClient(service.address)
      val name = s"p/${newFileId()}_0-1-0_20261123101010104.parquet.marker.CREATE"
      val refused = intercept[IOException](client.createMarker(s"${other.basePath}/.hoodie/.temp/20261123101010104",
          name))
      assert(refused.getMessage.contains("403"))
      assert(intercept[IOException](client.createMarker(s"${table.basePath}/data", name)).getMessage.contains("403"))
      assert(intercept[IOException](client.createMarker(s"${table.basePath}/.hoodie/.temp/1/../../x", name))
          .getMessage.contains("403"))
      assert(intercept[IOException](client.createMarker(s"${table.basePath}/.hoodie/.temp/1", "../../escape"))
          .getMessage.contains("400"))
      assert(!storage.exists(s"${other.basePath}/.hoodie/.temp/20261123101010104"))
    }
  }

  test("when the service stops answering, tasks create direct markers and the listing has both kinds") {
    val table = createTable(TableType.CopyOnWrite)
    val markers = new Markers(storage, table.basePath, "20261123101010105")
    val viaService = Marker("p", s"${newFileId()}_0-1-0_20261123101010105.parquet", IOType.Create)
    val direct = Marker("p", s"${newFileId()}_0-1-1_20261123101010105.parquet", IOType.Create)
    val fallbacks = TimelineServerMarkers.fallbacks.get()
    val address = withService() { service =>
      service.register(table.basePath)
      service.stopAfterMarkers(1)
      val writer = new TimelineServerMarkers(new TimelineServiceClient(service.address), markers)
      writer.create(viaService.partitionPath, viaService.fileName, viaService.ioType)
      writer.create(direct.partitionPath, direct.fileName, direct.ioType) // the service "crashes" here
      assert(!service.isRunning)
      service.address
    }
    // And with nothing listening at all.
    val late = Marker("q", s"${newFileId()}_0-1-2_20261123101010105.parquet", IOType.Create)
    new TimelineServerMarkers(new TimelineServiceClient(address, connectTimeoutMs = 500), markers)
      .create(late.partitionPath, late.fileName, late.ioType)
    assert(TimelineServerMarkers.fallbacks.get() - fallbacks == 2)
    assert(storage.exists(s"${markers.folder}/p/${direct.markerName.stripPrefix("p/")}"))
    assert(markers.list().toSet == Set(viaService, direct, late))
  }
}
