// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.write

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, ObjectInputStream, ObjectOutputStream}

import org.apache.spark.SparkContext
import org.apache.spark.broadcast.Broadcast

/**
 * A value built on the driver that every task of a job reads, deserialized once per executor
 * instead of once per task. A task's closure is deserialized by every task; a write's
 * [[io.pyhudi.write.handle.HandleContext]] carries two Hadoop configurations, whose parsing
 * cost about 20 ms per task: seconds for a write with a task per file group.
 *
 * The value travels as Java-serialized bytes inside a broadcast, so it ships the same way
 * whatever `spark.serializer` is: Kryo, serializing field by field, would ship a
 * [[io.pyhudi.storage.SerializableConfiguration]] without its (transient) configuration.
 * Tasks of one executor then share one instance: the value must be safe to read from several
 * threads.
 */
final class ExecutorShared[T] private (bytes: Array[Byte]) extends Serializable {
  @transient @volatile private var cached: AnyRef = _

  def value: T = {
    if (cached == null) synchronized {
      if (cached == null) {
        val in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
          // The connector's classes come from the task's class loader (the jar added to the session).
          override def resolveClass(d: java.io.ObjectStreamClass): Class[_] =
            try Class.forName(d.getName, false, Thread.currentThread().getContextClassLoader)
            catch { case _: ClassNotFoundException => super.resolveClass(d) }
        }
        try cached = in.readObject()
        finally in.close()
      }
    }
    cached.asInstanceOf[T]
  }
}

object ExecutorShared {

  /** Broadcasts `value`; destroy the broadcast once the job that reads it has finished. */
  def apply[T](sc: SparkContext, value: T): Broadcast[ExecutorShared[T]] = sc.broadcast(of(value))

  /** `value` as Java-serialized bytes, deserialized on the first [[ExecutorShared.value]]. */
  def of[T](value: T): ExecutorShared[T] = {
    val buffer = new ByteArrayOutputStream()
    val out = new ObjectOutputStream(buffer)
    try out.writeObject(value)
    finally out.close()
    new ExecutorShared[T](buffer.toByteArray)
  }
}
