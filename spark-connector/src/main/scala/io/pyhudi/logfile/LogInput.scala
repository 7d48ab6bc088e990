// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.logfile

import java.io.{Closeable, EOFException}
import java.nio.ByteBuffer

import org.apache.hadoop.fs.FSDataInputStream

/**
 * A seekable source of a log file's bytes of known length, so that one parser serves Hadoop
 * streams and in-memory byte arrays alike.
 */
private[logfile] trait LogInput extends Closeable {
  def length: Long
  def pos: Long
  def seek(to: Long): Unit

  /** Reads exactly `len` bytes at the current position or throws EOFException. */
  def readFully(buf: Array[Byte], off: Int, len: Int): Unit

  final def readBytes(len: Int): Array[Byte] = {
    val buf = new Array[Byte](len)
    readFully(buf, 0, len)
    buf
  }

  final def readInt(): Int = ByteBuffer.wrap(readBytes(4)).getInt
  final def readLong(): Long = ByteBuffer.wrap(readBytes(8)).getLong
}

private[logfile] object LogInput {

  def of(bytes: Array[Byte]): LogInput = new LogInput {
    private var at = 0
    def length: Long = bytes.length.toLong
    def pos: Long = at.toLong
    def seek(to: Long): Unit = at = math.max(0L, math.min(to, length)).toInt
    def readFully(buf: Array[Byte], off: Int, len: Int): Unit = {
      if (len > bytes.length - at) { at = bytes.length; throw new EOFException(s"$len bytes past the end") }
      System.arraycopy(bytes, at, buf, off, len)
      at += len
    }
    def close(): Unit = ()
  }

  /** Wraps a Hadoop stream; `length` comes from the file status, as streams do not know it. */
  def of(in: FSDataInputStream, fileLength: Long): LogInput = new LogInput {
    def length: Long = fileLength
    def pos: Long = in.getPos
    def seek(to: Long): Unit = in.seek(to)
    def readFully(buf: Array[Byte], off: Int, len: Int): Unit = in.readFully(buf, off, len)
    def close(): Unit = in.close()
  }
}
