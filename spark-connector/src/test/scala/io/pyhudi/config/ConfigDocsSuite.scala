// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.errors.InvalidOptionException
import io.pyhudi.read.QueryType
import io.pyhudi.testutil.GeneratedFiles

class ConfigDocsSuite extends AnyFunSuite {

  test("docs/options.md is generated from the option definitions") {
    GeneratedFiles.assertCurrent("docs/options.md", ConfigDocs)
  }

  test("enumerations list their valid values in errors") {
    val e = intercept[InvalidOptionException](
      ReadConfig.QueryType.from(Map("HOODIE.DATASOURCE.QUERY.TYPE" -> "latest")))
    assert(e.getMessage.contains("hoodie.datasource.query.type"))
    assert(e.getMessage.contains("snapshot, read_optimized, incremental"))
    assert(ReadConfig.QueryType.from(Map.empty) == Some(QueryType.Snapshot))
    assert(ReadConfig.QueryType.from(Map("hoodie.datasource.query.type" -> "READ_OPTIMIZED")) ==
      Some(QueryType.ReadOptimized))
  }
}
