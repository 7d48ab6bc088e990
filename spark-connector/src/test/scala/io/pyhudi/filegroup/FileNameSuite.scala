// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.filegroup

import org.scalatest.funsuite.AnyFunSuite

class FileNameSuite extends AnyFunSuite {

  test("base file names") {
    val b = BaseFile.parse("/t/city=a/d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0_0-13-60_20250331030642808.parquet", 10).get
    assert(b.fileId == "d0304c53-6fd2-4b7a-a9d6-5ff632f79224-0")
    assert(b.writeToken == "0-13-60")
    assert(b.instant == "20250331030642808")
    assert(b.name.endsWith(".parquet"))
    Seq("part-0000.parquet", "a_b.parquet", ".hidden_0-1-2_001.parquet", "f_0-1-2_abc.parquet",
      "f_0-1-2_001.parquet.crc", ".hoodie_partition_metadata").foreach { n =>
      assert(BaseFile.parse(s"/t/$n", 1).isEmpty, n)
    }
  }

  test("log file names") {
    val l = LogFile.parse("/t/.6d3d1d6e-2298-4080-a0c1-494877d6f40a-0_20250618054711154.log.1_0-26-85", 5).get
    assert(l.fileId == "6d3d1d6e-2298-4080-a0c1-494877d6f40a-0")
    assert(l.baseInstant == "20250618054711154")
    assert(l.version == 1 && l.writeToken == "0-26-85")
    assert(LogFile.parse("/t/.f-0_001.log.2", 1).map(_.version) == Some(2), "token is optional")
    assert(LogFile.parse("/t/.f-0_001.log.1_0-1-2.cdc", 1).isEmpty, "CDC logs are not data logs")
    assert(LogFile.parse("/t/f-0_001.log.1_0-1-2", 1).isEmpty)
    assert(LogFile.parse("/t/.commits_.archive.1_1-0-1", 1).isEmpty)
  }

  test("logs order by base instant, version, then write token") {
    val names = Seq(".f_002.log.1_0-1-1", ".f_001.log.10_0-1-1", ".f_001.log.2_1-0-1",
      ".f_001.log.2_0-9-9", ".f_001.log.1_0-1-1")
    val sorted = names.flatMap(n => LogFile.parse(s"/t/$n", 1)).sorted.map(_.name)
    assert(sorted == Seq(".f_001.log.1_0-1-1", ".f_001.log.2_0-9-9", ".f_001.log.2_1-0-1",
      ".f_001.log.10_0-1-1", ".f_002.log.1_0-1-1"))
  }
}
