// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.GeneratedFiles

class PythonOptionsSuite extends AnyFunSuite {

  private val text = PythonOptions.source

  test("python/pyhudi/options.py is generated from the option definitions") {
    GeneratedFiles.assertCurrent("python/pyhudi/options.py", PythonOptions)
  }

  test("every option has a constant holding its key, and every enumeration a class of its values") {
    for (e <- ReadConfig.entries ++ WriteConfig.entries) {
      val name = PythonOptions.constantName(e.key)
      assert(text.contains(s"""\n$name = "${e.key}"\n"""), e.key)
      assert(text.contains(s"""    "$name",\n"""), s"$name is not exported")
    }
    assert(PythonOptions.className(ReadConfig.QueryType).contains("QueryType"))
    assert(PythonOptions.className(WriteConfig.Operation).contains("WriteOperation"))
    assert(PythonOptions.className(WriteConfig.HiveStylePartitioning).isEmpty, "booleans get no class")
    assert(PythonOptions.className(WriteConfig.KeyGeneratorClass).isEmpty, "class names are not member names")
    assert(text.contains("class QueryType(_StrEnum):"))
    assert(text.contains("""    READ_OPTIMIZED = "read_optimized"""" + "\n"))
    assert(text.contains("return self in (IndexType.GLOBAL_BLOOM, IndexType.GLOBAL_SIMPLE)"))
  }

  test("constant names follow the key without Hudi's prefixes") {
    assert(PythonOptions.constantName("hoodie.datasource.query.type") == "QUERY_TYPE")
    assert(PythonOptions.constantName("hoodie.datasource.read.begin.instanttime") == "BEGIN_INSTANTTIME")
    assert(PythonOptions.constantName("hoodie.datasource.write.hive_style_partitioning") == "HIVE_STYLE_PARTITIONING")
    assert(PythonOptions.constantName("hoodie.bucket.index.num.buckets") == "BUCKET_INDEX_NUM_BUCKETS")
    assert(PythonOptions.constantName("as.of.instant") == "AS_OF_INSTANT")
  }

  test("no line is longer than ruff's limit") {
    val long = text.linesIterator.filter(_.length > 120).toSeq
    assert(long.isEmpty, long.mkString("\n"))
  }
}
