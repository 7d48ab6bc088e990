// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.timeline

import org.scalatest.funsuite.AnyFunSuite

class CommitMetadataSuite extends AnyFunSuite {

  private def parse(json: String) = CommitMetadata.parse(json.getBytes("UTF-8"))

  test("reads write stats, replaced file ids, schema and operation") {
    val m = parse(
      """{"partitionToWriteStats":{"city=a":[{"fileId":"f1","path":"city=a/f1_0-1-2_001.parquet",
        |"prevCommit":"null","numWrites":3},{"fileId":"f2","path":"city=a/.f2_000.log.1_0-1-2",
        |"prevCommit":"000","baseFile":"f2_0-1-1_000.parquet","logFiles":[".f2_000.log.1_0-1-2"]}]},
        |"partitionToReplaceFileIds":{"city=a":["f0"]},"compacted":false,
        |"extraMetadata":{"schema":"{}"},"operationType":"UPSERT","unknownField":1}""".stripMargin)
    assert(m.writeStats.map(_.fileId) == Seq("f1", "f2"))
    assert(m.writeStats.head.prevCommit.isEmpty, "\"null\" means a new file group")
    assert(m.writeStats(1).logFiles == Seq(".f2_000.log.1_0-1-2"))
    assert(m.writeStats.head.fileName == Some("f1_0-1-2_001.parquet"))
    assert(m.replacedFileIds == Map("city=a" -> Seq("f0")))
    assert(m.schema == Some("{}"))
    assert(m.operationType == Some("UPSERT"))
    assert(m.touchedFileGroups == Set("city=a" -> "f1", "city=a" -> "f2"))
  }

  test("an empty file is empty metadata") {
    assert(CommitMetadata.parse(Array.emptyByteArray) == CommitMetadata.Empty)
    assert(parse("  \n") == CommitMetadata.Empty)
  }
}
