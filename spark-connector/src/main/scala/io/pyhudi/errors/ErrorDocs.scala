// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.errors

import io.pyhudi.config.GeneratedFile

/**
 * Renders `docs/errors.md` from [[ErrorId.all]], so the list of ids cannot drift from the code
 * (a unit test compares the file with this output).
 */
object ErrorDocs extends GeneratedFile {

  /** `io.pyhudi.errors.FooException` has the Python twin `pyhudi.errors.FooError`. */
  def pythonClass(id: ErrorId[_ <: PyhudiException]): String =
    "pyhudi.errors." + id.exceptionClass.getSimpleName.stripSuffix("Exception") + "Error"

  def markdown: String = {
    val sb = new StringBuilder
    sb.append("# pyhudi errors\n\n")
    sb.append("Generated from `spark-connector/src/main/scala/io/pyhudi/errors/ErrorId.scala` by ")
    sb.append("`build/sbt \"connector/runMain io.pyhudi.errors.ErrorDocs docs/errors.md\"`. Do not edit by hand.\n\n")
    sb.append("Every error pyhudi raises on purpose starts its message with a stable id in brackets, e.g. ")
    sb.append("`[PATH_NOT_FOUND] Path does not exist: /data/trips`. An id keeps its name and meaning across ")
    sb.append("releases, while the words after it may change: branch on the class or the id, never on the ")
    sb.append("message. On the JVM the id is `PyhudiException.errorId`; in Python it is ")
    sb.append("`pyhudi.errors.PyhudiError.error_id`, and the Python class is the JVM class's twin ")
    sb.append("(the DataFrame API raises these classes too once `pyhudi` is imported). ")
    sb.append("`INTERNAL_ERROR` is a bug in pyhudi: please report it with the stack trace.\n\n")
    sb.append("| id | Python class | JVM class | meaning |\n| --- | --- | --- | --- |\n")
    ErrorId.all.foreach { id =>
      sb.append(s"| `${id.id}` | `${pythonClass(id)}` | `${id.exceptionClass.getName}` | " +
        s"${id.meaning.replace("|", "\\|")} |\n")
    }
    sb.toString
  }

  def text: String = markdown
}
