// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import org.scalatest.funsuite.AnyFunSuite

class SessionConfSuite extends AnyFunSuite {

  test("spark.hoodie.* session confs fill in options; a given option wins, whatever its case") {
    val session = Map(
      "spark.hoodie.datasource.write.operation" -> "insert",
      "spark.hoodie.index.type" -> "SIMPLE",
      "spark.sql.shuffle.partitions" -> "4",
      "hoodie.table.name" -> "not-a-spark-hoodie-key")
    val merged = SessionConf.withSessionConf(Map("HOODIE.INDEX.TYPE" -> "BLOOM", "path" -> "/t"), session)
    assert(merged == Map("hoodie.datasource.write.operation" -> "insert", "HOODIE.INDEX.TYPE" -> "BLOOM",
      "path" -> "/t"))
    assert(WriteConfig.Operation.from(merged).map(_.toString.toLowerCase).contains("insert"))
    assert(WriteConfig.IndexType.from(merged).get.toString == "BLOOM")
  }

  test("without session confs the options are unchanged") {
    val options = Map("hoodie.datasource.query.type" -> "snapshot")
    assert(SessionConf.withSessionConf(options, Map.empty) == options)
  }
}
