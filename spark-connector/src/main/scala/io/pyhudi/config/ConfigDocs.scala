// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import io.pyhudi.table.HoodieTable

/**
 * Renders the option reference in `docs/options.md` from the entries themselves, so the docs
 * cannot drift from the code (a unit test compares the file with this output).
 */
object ConfigDocs extends GeneratedFile {

  def markdown: String = {
    val sb = new StringBuilder
    sb.append("# pyhudi options\n\n")
    sb.append("Generated from the option definitions in `spark-connector/src/main/scala/io/pyhudi/config/`")
    sb.append(" by `build/sbt \"connector/runMain io.pyhudi.config.ConfigDocs docs/options.md\"`. ")
    sb.append("Do not edit by hand.\n\n")
    sb.append("Where a value comes from, highest first: the option given to the read or write; the Spark ")
    sb.append("session conf as `spark.<key>` (e.g. ")
    sb.append("`spark.conf.set(\"spark.hoodie.datasource.write.operation\", \"insert\")` or ")
    sb.append("`--conf spark.hoodie.index.type=SIMPLE`), which applies to every pyhudi read, write and table ")
    sb.append("service of the session; for keys an existing table records (record key, precombine and ")
    sb.append(
      s"partition fields, key generator, ...), the table's `${HoodieTable.PropertiesFile}` (an option or session conf ")
    sb.append("that contradicts it fails the write before anything is written); then the default below.\n\n")
    section(sb, "Read options (`spark.read.format(\"pyhudi\").option(...)`)", ReadConfig.entries)
    section(sb, "Write options (`df.write.format(\"pyhudi\").option(...)`)", WriteConfig.entries)
    sb.toString
  }

  private def section(sb: StringBuilder, title: String, entries: Seq[ConfigEntry[_]]): Unit = {
    sb.append(s"## $title\n\n")
    sb.append("| key | default | valid values | meaning |\n| --- | --- | --- | --- |\n")
    entries.foreach { e =>
      val valid = if (e.validValues.isEmpty) "" else e.validValues.map(v => s"`$v`").mkString(", ")
      val also =
        if (e.alternatives.isEmpty) "" else e.alternatives.map(a => s"`$a`").mkString(" Also read as ", ", ", ".")
      sb.append(s"| `${e.key}` | `${e.defaultText}` | $valid | ${e.doc.replace("|", "\\|")}$also |\n")
    }
    sb.append("\n")
  }

  def text: String = markdown
}
