// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write.commit

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.TempDirs

class MarkersSuite extends AnyFunSuite {
  import WriteFixtures.storage

  test("direct markers: one empty file per data file under .hoodie/.temp/<instant>/<partition>/") {
    val base = TempDirs.create("pyhudi-markers").toString
    val m = new Markers(storage, base, "20250101000000001")
    m.create("city=a", "f1_0-1-0_20250101000000001.parquet", IOType.Create)
    m.create("city=a", "f1_0-1-0_20250101000000001.parquet", IOType.Create) // idempotent
    m.create("2023/04/01", ".f2_20241231000000000.log.1_0-1-0", IOType.Append)
    m.create("", "f3_0-1-0_20250101000000001.parquet", IOType.Merge)
    assert(
      storage.exists(s"$base/.hoodie/.temp/20250101000000001/city=a/f1_0-1-0_20250101000000001.parquet.marker.CREATE"))
    assert(
      storage.fileSize(s"$base/.hoodie/.temp/20250101000000001/f3_0-1-0_20250101000000001.parquet.marker.MERGE") == 0)
    assert(m.list().toSet == Set(
      Marker("city=a", "f1_0-1-0_20250101000000001.parquet", IOType.Create),
      Marker("2023/04/01", ".f2_20241231000000000.log.1_0-1-0", IOType.Append),
      Marker("", "f3_0-1-0_20250101000000001.parquet", IOType.Merge)))
    assert(Marker("2023/04/01", ".f2_x.log.1_0-1-0", IOType.Append).dataPath == "2023/04/01/.f2_x.log.1_0-1-0")
    m.deleteAll()
    assert(!m.exist() && m.list().isEmpty)
  }

  test("timeline-server markers are read when MARKERS.type exists") {
    val base = TempDirs.create("pyhudi-markers").toString
    val dir = s"$base/.hoodie/.temp/20250101000000002"
    storage.create(s"$dir/MARKERS.type", "TIMELINE_SERVER_BASED".getBytes)
    storage.create(s"$dir/MARKERS0", "p/a_0-1-0_20250101000000002.parquet.marker.CREATE\n".getBytes)
    storage.create(s"$dir/MARKERS1",
      "p/.b_20250101000000000.log.1_0-1-0.marker.APPEND\n\nc_0-1-0_20250101000000002.parquet.marker.MERGE\n".getBytes)
    val m = new Markers(storage, base, "20250101000000002")
    assert(m.list().toSet == Set(Marker("p", "a_0-1-0_20250101000000002.parquet", IOType.Create),
      Marker("p", ".b_20250101000000000.log.1_0-1-0", IOType.Append),
      Marker("", "c_0-1-0_20250101000000002.parquet", IOType.Merge)))
    storage.delete(s"$dir/MARKERS.type")
    assert(m.list().isEmpty, "without MARKERS.type the MARKERS files are not markers")
  }

  test("names that are not markers are ignored") {
    assert(Markers.parse("p/a.parquet").isEmpty && Markers.parse("p/a.parquet.marker.DELETE").isEmpty)
  }
}
