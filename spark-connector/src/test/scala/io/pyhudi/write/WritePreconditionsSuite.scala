// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

import java.io.File
import java.nio.file.Files

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidOptionException
import io.pyhudi.table.TableConfig
import io.pyhudi.testutil.Corpus

class WritePreconditionsSuite extends AnyFunSuite {

  private def config(table: String): TableConfig = TableConfig.parse(
    Files.readAllBytes(new File(Corpus.extract(table), ".hoodie/hoodie.properties").toPath), table)

  test("hoodie.populate.meta.fields=false is refused, in any key case and with spaces") {
    Seq("hoodie.populate.meta.fields" -> "false", "HOODIE.POPULATE.META.FIELDS" -> " False ").foreach { opt =>
      val e = intercept[InvalidOptionException](WritePreconditions.check(Map(opt), None, "/t"))
      assert(e.getMessage.contains("hoodie.populate.meta.fields=false") && e.getMessage.contains("/t"))
    }
    WritePreconditions.check(Map("hoodie.populate.meta.fields" -> "true"), None, "/t")
  }

  test("a table written without meta fields is refused; a table with them is accepted") {
    val none = config("cow/v6_simplekeygen_hivestyle_no_metafields")
    assert(!none.populateMetaFields)
    intercept[InvalidOptionException](WritePreconditions.check(Map.empty, Some(none), "/t"))
    WritePreconditions.check(Map.empty, Some(config("cow/v6_simplekeygen_nonhivestyle")), "/t")
  }

  test("hoodie.metadata.enable=true is accepted with a warning that names the table") {
    assert(WritePreconditions.metadataTableWarning(Map.empty, "/t").isEmpty)
    assert(WritePreconditions.metadataTableWarning(Map("hoodie.metadata.enable" -> "false"), "/t").isEmpty)
    val w = WritePreconditions.metadataTableWarning(Map("hoodie.metadata.enable" -> "true"), "/data/t")
    assert(w.exists(m => m.contains("hoodie.metadata.enable=true") && m.contains("/data/t")))
  }
}
