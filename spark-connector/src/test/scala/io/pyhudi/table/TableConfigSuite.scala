// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.table

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidTableException

class TableConfigSuite extends AnyFunSuite {

  private def config(extra: String): TableConfig = TableConfig.parse(
    ("#Properties saved\nhoodie.table.name=t\nhoodie.table.type=MERGE_ON_READ\n" +
      "hoodie.timeline.layout.version=1\nhoodie.table.recordkey.fields=id,name\n" +
      "hoodie.table.partition.fields=byteField,shortField\n" +
      "hoodie.table.create.schema={\"type\"\\:\"record\"}\n" + extra).getBytes("UTF-8"), "/t")

  test("typed accessors and Java properties unescaping") {
    val c = config("hoodie.table.version=6\n")
    TableConfig.validate(c)
    assert(c.tableType == TableType.MergeOnRead)
    assert(c.recordKeyFields == Seq("id", "name"))
    assert(c.partitionFields == Seq("byteField", "shortField"))
    assert(c.createSchema == Some("{\"type\":\"record\"}"))
    assert(c.populateMetaFields && !c.hiveStylePartitioning)
  }

  test("rejects other table versions, naming the supported ones") {
    val e = intercept[InvalidTableException](TableConfig.validate(config("hoodie.table.version=5\n")))
    assert(e.getMessage.contains("version 5") && e.getMessage.contains("6"))
    intercept[InvalidTableException](TableConfig.validate(config("")))
    intercept[InvalidTableException](TableConfig.validate(
        config("hoodie.table.version=6\nhoodie.datasource.write.drop.partition.columns=true\n")))
    intercept[InvalidTableException](TableConfig.validate(
        config("hoodie.table.version=6\nhoodie.populate.meta.fields=maybe\n")))
  }
}
