// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.errors

import java.lang.reflect.Modifier

import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.testutil.GeneratedFiles

class ErrorIdSuite extends AnyFunSuite {

  test("docs/errors.md is generated from the error ids") {
    GeneratedFiles.assertCurrent("docs/errors.md", ErrorDocs)
  }

  test("ids are unique UPPER_SNAKE_CASE names with a meaning") {
    val ids = ErrorId.all.map(_.id)
    assert(ids.size > 40 && ids.distinct == ids, ids.diff(ids.distinct))
    ids.foreach(id => assert(id.matches("[A-Z][A-Z0-9]*(_[A-Z0-9]+)*"), id))
    ErrorId.all.foreach(id => assert(id.meaning.nonEmpty && id.meaning.endsWith("."), id))
  }

  /** An argument of each parameter type the factories take. */
  private def argumentFor(method: String, t: Class[_]): AnyRef =
    if (t == classOf[String]) "x"
    else if (t == classOf[Long]) Long.box(7L)
    else if (t == classOf[Int]) Int.box(7)
    else if (t == classOf[Throwable]) new java.io.IOException("cause")
    else if (t == classOf[Seq[_]] && method == "missingFiles") Seq(("/t/f.parquet", Seq("001")))
    else if (t == classOf[Seq[_]]) Seq("a", "b")
    else fail(s"no sample argument of $t for Errors.$method")

  test("every factory builds its id's exception class with the id as the message's prefix") {
    val factories = Errors.getClass.getDeclaredMethods.toSeq.filter { m =>
      Modifier.isPublic(m.getModifiers) && classOf[PyhudiException].isAssignableFrom(m.getReturnType)
    }
    assert(factories.size > 40, factories.map(_.getName))
    val used = factories.map { m =>
      val args = m.getParameterTypes.toSeq.map(argumentFor(m.getName, _))
      val e = m.invoke(Errors, args: _*).asInstanceOf[PyhudiException]
      assert(ErrorId.all.contains(e.error), s"Errors.${m.getName}: ${e.error} is not registered")
      assert(e.getClass == e.error.exceptionClass, s"Errors.${m.getName}: ${e.getClass} for ${e.error}")
      assert(m.getReturnType == e.error.exceptionClass, s"Errors.${m.getName} declares ${m.getReturnType}")
      assert(e.getMessage == s"[${e.errorId}] ${e.detail}" && e.detail.nonEmpty, e.getMessage)
      e.error
    }
    // Every id is raised by some factory; an id nothing raises is dead documentation.
    assert(ErrorId.all.filterNot(used.contains).isEmpty, ErrorId.all.filterNot(used.contains))
  }

  test("exceptions survive Java serialization with their id (Spark ships task failures to the driver)") {
    val bytes = new java.io.ByteArrayOutputStream
    val out = new java.io.ObjectOutputStream(bytes)
    out.writeObject(Errors.nullOrEmptyRecordKey("id", null))
    out.close()
    val in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray))
    val e = in.readObject().asInstanceOf[InvalidRecordException]
    assert(e.error eq ErrorId.NullOrEmptyRecordKey)
    assert(e.getMessage.startsWith("[NULL_OR_EMPTY_RECORD_KEY] Record key field 'id' is null"))
  }

  test("messages keep their wording after the id") {
    assert(Errors.pathNotFound("/data/t").getMessage == "[PATH_NOT_FOUND] Path does not exist: /data/t")
    val internal = Errors.internal("two slices share a file id")
    assert(internal.errorId == "INTERNAL_ERROR")
    assert(internal.getMessage.startsWith("[INTERNAL_ERROR] two slices share a file id. This is a bug"))
    assert(Errors.commitFailed("001", "disk full", new java.io.IOException("io")).getCause.getMessage == "io")
  }
}
