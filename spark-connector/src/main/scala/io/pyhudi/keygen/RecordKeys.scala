// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

/**
 * Record key strings as Apache Hudi's key generators build them: one field gives its value,
 * several give `f1:v1,f2:v2` with `__null__` / `__empty__` standing for null and empty values.
 */
object RecordKeys {
  val NullValue = "__null__"
  val EmptyValue = "__empty__"

  def build(fields: Seq[String], values: Seq[Any]): String =
    if (fields.size == 1) String.valueOf(values.head)
    else fields.zip(values).map { case (f, v) =>
      val s = if (v == null) NullValue else { val t = v.toString; if (t.isEmpty) EmptyValue else t }
      s"$f:$s"
    }.mkString(",")
}
