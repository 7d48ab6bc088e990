// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.config.WriteConfig
import io.pyhudi.errors.InvalidOptionException

/** What each save mode makes of a write, for a table that exists and one that does not. */
class SaveModeSuite extends AnyFunSuite {

  private val options = Map(WriteConfig.Operation.key -> "upsert", "hoodie.table.name" -> "t")

  test("no table yet: every mode writes with the options as given") {
    Seq(SaveMode.Append, SaveMode.Overwrite, SaveMode.ErrorIfExists, SaveMode.Ignore).foreach { m =>
      assert(m.options(tableExists = false, "/t", options).contains(options), m)
    }
  }

  test("existing table: Append writes, Ignore skips, ErrorIfExists fails naming the path") {
    assert(SaveMode.Append.options(tableExists = true, "/t", options).contains(options))
    assert(SaveMode.Ignore.options(tableExists = true, "/t", options).isEmpty)
    val e = intercept[InvalidOptionException](SaveMode.ErrorIfExists.options(tableExists = true, "/data/t", options))
    assert(e.getMessage.contains("/data/t") && e.getMessage.contains("ErrorIfExists"))
  }

  test("Overwrite of an existing table becomes insert_overwrite_table, whatever operation was asked") {
    val written = SaveMode.Overwrite.options(tableExists = true, "/t", options).get
    assert(WriteConfig.Operation.from(written).get == WriteOperation.InsertOverwriteTable)
    assert(written - WriteConfig.Operation.key == options - WriteConfig.Operation.key)
    assert(WriteConfig.Operation.from(SaveMode.Overwrite.options(tableExists = true, "/t", Map.empty).get).get ==
      WriteOperation.InsertOverwriteTable)
  }
}
