// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.io.OutputStream

import org.apache.avro.io.{BinaryEncoder, Encoder, EncoderFactory}

import io.pyhudi.errors.Errors

/**
 * AVRO_DATA content (hudi-format.md §6.5) built one datum at a time, so that a writer can see
 * the content's size before it adds the next datum (log files roll over by size). Each datum is
 * encoded first into a buffer of its own, then appended with its length in front.
 *
 * Not thread-safe; reusable after [[clear]].
 */
final class AvroBlockBuilder {
  private val datum = new AvroBlockBuilder.Bytes(256)
  private val body = new AvroBlockBuilder.Bytes(1 << 16)
  private val encoder: BinaryEncoder = EncoderFactory.get().directBinaryEncoder(datum, null)
  private var records = 0

  /** Encodes the next datum with `write` and returns its length; [[append]] then adds it. */
  def encode(write: Encoder => Unit): Int = {
    datum.size = 0
    write(encoder)
    datum.size
  }

  /** Adds the datum [[encode]] wrote last. */
  def append(): Unit = {
    body.writeInt(datum.size)
    body.write(datum.buf, 0, datum.size)
    records += 1
  }

  /** Datums added since the last [[clear]]. */
  def count: Int = records

  /** The content's size in bytes with the datums added so far. */
  def contentSize: Long = 8L + body.size

  /** The content: version, record count, then the datums. */
  def content(): Array[Byte] = {
    val out = new Array[Byte](8 + body.size)
    java.nio.ByteBuffer.wrap(out).putInt(AvroBlockContent.Version).putInt(records)
    System.arraycopy(body.buf, 0, out, 8, body.size)
    out
  }

  /** Drops the datums added, keeping the buffers. */
  def clear(): Unit = {
    body.size = 0
    records = 0
  }
}

private object AvroBlockBuilder {

  /** The largest array the JVM allocates, with some room for its header. */
  val Limit: Long = Int.MaxValue - 16L

  /** A growable byte array: unlike ByteArrayOutputStream, unsynchronized and readable in place. */
  final class Bytes(initial: Int) extends OutputStream {
    var buf = new Array[Byte](math.max(initial, 16))
    var size = 0

    private def ensure(more: Int): Unit =
      if (size.toLong + more > buf.length) {
        val need = size.toLong + more
        if (need > Limit) throw Errors.internal(s"an AVRO_DATA block cannot hold $need bytes: a Java array holds 2 GiB")
        val want = math.min(math.max(need, buf.length.toLong * 2), Limit)
        buf = java.util.Arrays.copyOf(buf, want.toInt)
      }

    override def write(b: Int): Unit = { ensure(1); buf(size) = b.toByte; size += 1 }

    override def write(b: Array[Byte], off: Int, len: Int): Unit = {
      ensure(len)
      System.arraycopy(b, off, buf, size, len)
      size += len
    }

    /** A big-endian int32, as DataOutputStream writes it. */
    def writeInt(v: Int): Unit = {
      ensure(4)
      buf(size) = (v >>> 24).toByte
      buf(size + 1) = (v >>> 16).toByte
      buf(size + 2) = (v >>> 8).toByte
      buf(size + 3) = v.toByte
      size += 4
    }
  }
}
