// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.merge

import java.nio.charset.StandardCharsets.UTF_8

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

class LogRecordsSuite extends AnyFunSuite {

  private def row(v: String): InternalRow = InternalRow(UTF8String.fromString(v))
  private def value(e: Option[LogEntry]): Option[String] = e.collect {
    case LogRecord(r, _) => r.getUTF8String(0).toString
  }

  test("among log records the larger ordering value wins, ties go to the later write") {
    val m = new LogRecords(hasOrdering = true)
    m.addRecord("k", row("first"), 5L)
    m.addRecord("k", row("older"), 3L)
    assert(value(m.take("k")) == Some("first"))
    m.addRecord("k", row("a"), 5L)
    m.addRecord("k", row("b"), 5L)
    assert(value(m.take("k")) == Some("b"))
  }

  test("without an ordering field the later write always wins") {
    val m = new LogRecords(hasOrdering = false)
    m.addRecord("k", row("first"), 5L)
    m.addRecord("k", row("second"), 1L)
    assert(value(m.take("k")) == Some("second"))
  }

  test("natural-order deletes always apply; ordered deletes lose to newer-ordered records") {
    val m = new LogRecords(hasOrdering = true)
    m.addRecord("a", row("x"), 10L)
    m.addDelete("a", None)
    assert(m.take("a") == Some(LogDelete(None)))
    m.addRecord("b", row("x"), 10L)
    m.addDelete("b", Some(java.lang.Long.valueOf(3L)))
    assert(value(m.take("b")) == Some("x"), "a delete older than the record is dropped")
    m.addRecord("c", row("x"), 10L)
    m.addDelete("c", Some(java.lang.Long.valueOf(11L)))
    assert(m.take("c") == Some(LogDelete(Some(11L))))
  }

  test("a record written after a delete revives the key") {
    val m = new LogRecords(hasOrdering = true)
    m.addDelete("k", None)
    m.addRecord("k", row("back"), 1L)
    assert(value(m.take("k")) == Some("back"))
    assert(m.isEmpty)
  }

  test("remaining records keep insertion order and skip deletes") {
    val m = new LogRecords(hasOrdering = false)
    m.addRecord("a", row("1"), null)
    m.addDelete("b", None)
    m.addRecord("c", row("3"), null)
    assert(m.remainingRecords.map(_.getUTF8String(0).toString).toSeq == Seq("1", "3"))
  }

  test("ordering values compare across numeric widths and Catalyst forms") {
    assert(OrderingValues.compare(3, 4L) < 0)
    assert(OrderingValues.compare(UTF8String.fromString("b"), "a") > 0)
    assert(OrderingValues.compare(org.apache.spark.sql.types.Decimal(1.5), 1) > 0)
    assert(OrderingValues.compare("a", 1) == 0, "unrelated kinds tie")
  }

  test("a key is found by its UTF-8 bytes, also from a slice of a larger buffer") {
    val m = new LogRecords(hasOrdering = false)
    m.addRecord("k1", row("v"), null)
    val buffer = "xxk1yy".getBytes("UTF-8")
    assert(m.take(UTF8String.fromBytes(buffer, 2, 2)) == LogRecord(row("v"), null))
    assert(m.take(UTF8String.fromString("k1")) == null, "taken once")
    assert(m.take(UTF8String.fromString("other")) == null)
  }

  /** `key` as a slice of a larger buffer, as a column vector hands it out. */
  private def sliced(key: String): UTF8String = {
    val bytes = s"..$key..".getBytes(UTF_8)
    UTF8String.fromBytes(bytes, 2, bytes.length - 4)
  }

  test("every logged key is taken once and no other key is, whatever the key's length") {
    val records = new LogRecords(hasOrdering = false)
    val logged = (0 until 20000 by 7).map(i => s"key-$i" + "x" * (i % 19))
    logged.foreach(k => records.addRecord(k, InternalRow(UTF8String.fromString(k)), null))
    val probed = (0 until 20000).map(i => s"key-$i" + "x" * (i % 19))
    val found = probed.filter(k => records.take(sliced(k)) != null)
    assert(found === logged)
    assert(records.isEmpty)
    assert(probed.forall(k => records.take(sliced(k)) == null))
  }

  test("keys added after a lookup are found") {
    val records = new LogRecords(hasOrdering = false)
    records.addRecord("a", InternalRow(UTF8String.fromString("a")), null)
    assert(records.take(sliced("b")) == null)
    records.addRecord("b", InternalRow(UTF8String.fromString("b")), null)
    records.addDelete("c", None)
    assert(records.take(sliced("b")).isInstanceOf[LogRecord])
    assert(records.take(sliced("c")) == LogDelete(None))
    assert(records.remainingRecords.map(_.getString(0)).toSeq === Seq("a"))
  }

  test("random adds, deletes and takes agree with an insertion-ordered map, across resizes") {
    val rnd = new scala.util.Random(7)
    for (round <- 0 until 20) {
      val records = new LogRecords(hasOrdering = false)
      val model = new java.util.LinkedHashMap[String, String]()
      val universe = 50 + rnd.nextInt(3000)
      (0 until 4 * universe).foreach { _ =>
        val k = s"k${rnd.nextInt(universe)}"
        rnd.nextInt(10) match {
          case 0 | 1 =>
            val got = records.take(sliced(k)) match {
              case LogRecord(r, _) => r.getString(0)
              case LogDelete(_) => "deleted"
              case null => null
              case other => fail(s"round $round: $k holds $other")
            }
            assert(got == model.remove(k), s"round $round: take $k")
          case 2 =>
            records.addDelete(k, None)
            model.put(k, "deleted")
          case _ =>
            val v = s"v${rnd.nextInt()}"
            records.addRecord(k, row(v), null)
            model.put(k, v)
        }
      }
      assert(records.size == model.size)
      val expected = model.values.toArray.toSeq.filter(_ != "deleted")
      assert(records.remainingRecords.map(_.getString(0)).toSeq == expected, s"round $round")
    }
  }

  test("a key taken and added again comes last among the remaining records") {
    val m = new LogRecords(hasOrdering = false)
    Seq("a", "b", "c").foreach(k => m.addRecord(k, row(k), null))
    assert(m.take(sliced("a")) != null)
    m.addRecord("a", row("a2"), null)
    assert(m.remainingRecords.map(_.getString(0)).toSeq == Seq("b", "c", "a2"))
  }

  test("takeAll takes what take would, key by key: repeated and absent keys, nulls, after re-adds") {
    val rnd = new scala.util.Random(23)
    for (round <- 0 until 30) {
      val one = new LogRecords(hasOrdering = false)
      val batched = new LogRecords(hasOrdering = false)
      val universe = 20 + rnd.nextInt(4000)
      (0 until rnd.nextInt(2 * universe)).foreach { _ =>
        val k = s"key-${rnd.nextInt(universe)}" + "z" * rnd.nextInt(12)
        if (rnd.nextInt(8) == 0) { one.addDelete(k, None); batched.addDelete(k, None) }
        else { val v = row(s"v${rnd.nextInt()}"); one.addRecord(k, v, null); batched.addRecord(k, v, null) }
        // A take between adds, so that some keys are taken and added again.
        if (rnd.nextInt(50) == 0) {
          val t = s"key-${rnd.nextInt(universe)}"; one.take(sliced(t)); batched.take(sliced(t))
        }
      }
      (0 until 5).foreach { _ =>
        val n = rnd.nextInt(600)
        val keys = Array.fill(n) {
          if (rnd.nextInt(40) == 0) null else sliced(s"key-${rnd.nextInt(universe)}" + "z" * rnd.nextInt(12))
        }
        val out = Array.fill[LogEntry](n + 1)(LogDelete(None))
        batched.takeAll(keys, n, out)
        val expected = keys.map(k => if (k == null) null else one.take(k))
        assert(out.take(n).toSeq == expected.toSeq, s"round $round")
        assert(out(n) == LogDelete(None), "written past the batch")
        assert(batched.size == one.size)
      }
      assert(batched.remainingRecords.map(_.getString(0)).toSeq == one.remainingRecords.map(_.getString(0)).toSeq)
    }
  }

  private def utf8Order(a: String, b: String): Boolean =
    UTF8String.fromString(a).compareTo(UTF8String.fromString(b)) < 0

  /** Looks `probes` up one by one (or in batches) and checks every answer against a map. */
  private def agreeWithModel(logged: Seq[String], probes: Seq[String], batches: Boolean, clue: String): LogRecords = {
    val records = new LogRecords(hasOrdering = false)
    val model = new java.util.LinkedHashMap[String, String]()
    logged.foreach { k => records.addRecord(k, row(s"v-$k"), null); model.put(k, s"v-$k") }
    def answer(e: LogEntry): String = e match {
      case LogRecord(r, _) => r.getString(0)
      case null => null
      case other => fail(s"$clue: $other")
    }
    if (batches) probes.grouped(97).foreach { g =>
      val out = new Array[LogEntry](g.size)
      records.takeAll(g.map(sliced).toArray, g.size, out)
      g.zip(out).foreach { case (k, e) => assert(answer(e) == model.remove(k), s"$clue: $k") }
    }
    else probes.foreach(k => assert(answer(records.take(sliced(k))) == model.remove(k), s"$clue: $k"))
    assert(records.size == model.size, clue)
    assert(records.remainingRecords.map(_.getString(0)).toSeq == model.values.toArray.toSeq, clue)
    records
  }

  test("base keys in any order find their entries: key order, runs, descending, shuffled, one by one or in batches") {
    val rnd = new scala.util.Random(31)
    // Keys that share prefixes, differ only in length or past the 8th byte, or hold bytes >= 0x80.
    val odd = Seq("", "a", "a\u0000", "ab", "abcdefgh", "abcdefgh\u0000", "abcdefghi", "abcdefgi", "\u00e9t\u00e9",
      "\uD83D\uDE00", "zzzzzzzzzzzzzzzzzzzzzzz1", "zzzzzzzzzzzzzzzzzzzzzzz2")
    val universe = ((0 until 5000).map(_.toString) ++ odd).distinct
    val sorted = universe.sortWith(utf8Order)
    val orders = Seq(
      "key order" -> sorted,
      "numbers as strings" -> universe, // in key order but for a jump back at each new length
      "descending" -> sorted.reverse,
      "shuffled" -> rnd.shuffle(universe),
      "sorted runs" -> (0 until 4).flatMap(_ => sorted.filter(_ => rnd.nextInt(3) == 0)))
    for ((name, order) <- orders; batches <- Seq(true, false)) {
      val logged = rnd.shuffle(universe).take(rnd.nextInt(universe.size / 4) + 1)
      // Some base keys twice in a row, as in a table with duplicates; some not at all.
      val probes = order.filter(_ => rnd.nextInt(10) != 0).flatMap(k => if (rnd.nextInt(50) == 0) Seq(k, k) else Seq(k))
      val r = agreeWithModel(logged, probes, batches, s"$name, batches $batches")
      r.addRecord("1", row("again"), null)
      assert(value(Option(r.take(sliced("1")))) == Some("again"), name)
    }
  }

  test("takeLong finds the keys that are a long's digits, each once, and only those") {
    val m = new LogRecords(hasOrdering = false)
    val keys = Seq("0", "-1", "42", "9223372036854775807", "-9223372036854775808", "007", "-0", "4x", "",
      "+5", "-", "9223372036854775808", "-9223372036854775809", "99999999999999999999", "1 ", "0x1")
    keys.foreach(k => m.addRecord(k, row(s"v$k"), null))
    assert(value(Option(m.takeLong(42L))) == Some("v42"))
    assert(m.takeLong(42L) == null, "a taken key is gone")
    assert(value(Option(m.takeLong(0L))) == Some("v0"))
    assert(value(Option(m.takeLong(-1L))) == Some("v-1"))
    assert(value(Option(m.takeLong(Long.MaxValue))) == Some("v9223372036854775807"))
    assert(value(Option(m.takeLong(Long.MinValue))) == Some("v-9223372036854775808"))
    assert(m.takeLong(7L) == null, "007 is not the key of 7")
    assert(m.takeLong(43L) == null)
    // Keys that are no long's digits are left for the records after the base rows.
    assert(m.takeLong(5L) == null, "+5 is not the key of 5")
    assert(m.takeLong(1L) == null)
    assert(m.remainingRecords.map(_.getUTF8String(0).toString).toSeq == Seq("v007", "v-0", "v4x", "v", "v+5", "v-",
      "v9223372036854775808", "v-9223372036854775809", "v99999999999999999999", "v1 ", "v0x1"))
    // An add after a lookup is found by the next one.
    m.addRecord("43", row("v43"), null)
    assert(value(Option(m.takeLong(43L))) == Some("v43"))
    assert(m.take(UTF8String.fromString("43")) == null, "taken by value, gone by bytes")
  }

  test("takeLong takes a key exactly when it is a long's toString, for random digit strings") {
    val rnd = new scala.util.Random(11)
    val alphabet = "-+0123456789 x"
    val keys = (Seq.fill(3000) {
      if (rnd.nextBoolean()) rnd.nextLong().toString.take(1 + rnd.nextInt(20))
      else Seq.fill(1 + rnd.nextInt(21))(alphabet(rnd.nextInt(alphabet.length))).mkString
    } ++ Seq("9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809")).distinct
    val m = new LogRecords(hasOrdering = false)
    keys.foreach(k => m.addRecord(k, row(k), null))
    val canonical = keys.flatMap(k => k.toLongOption.filter(_.toString == k))
    canonical.sorted.foreach(v => assert(value(Option(m.takeLong(v))) == Some(v.toString), v))
    assert(m.remainingRecords.map(_.getUTF8String(0).toString).toSet == keys.toSet -- canonical.map(_.toString))
  }

  test("takeLong finds every entry whatever the base rows' order: ascending, with gaps, runs, descending, shuffled") {
    val rnd = new scala.util.Random(7)
    val universe = (-300L until 3000L).map(_ * 37) ++ Seq(Long.MinValue, Long.MaxValue, Long.MinValue + 1)
    val sorted = universe.sorted
    val orders = Seq(
      "ascending" -> sorted,
      "ascending with repeats" -> sorted.flatMap(v => if (rnd.nextInt(20) == 0) Seq(v, v) else Seq(v)),
      "ascending, a step back now and then" -> sorted.grouped(200).toSeq.flatMap(g => g.drop(150) ++ g.take(150)),
      "sorted runs" -> (0 until 4).flatMap(_ => sorted.filter(_ => rnd.nextInt(3) == 0)),
      "descending" -> sorted.reverse,
      "shuffled" -> rnd.shuffle(sorted),
      // In order at first, then out of it: the cursor gives way to the table midway.
      "ascending, then shuffled" -> (sorted.take(2000) ++ rnd.shuffle(sorted.drop(2000))))
    for ((name, order) <- orders; round <- 0 until 3) {
      val m = new LogRecords(hasOrdering = false)
      val model = new java.util.LinkedHashMap[String, String]()
      // Logged keys in no order, some that are no long's digits, and base values with no entry.
      rnd.shuffle(universe).filter(_ => rnd.nextInt(4) != 0).foreach { v =>
        m.addRecord(v.toString, row(s"v$v"), null); model.put(v.toString, s"v$v")
      }
      Seq("0012", "x", "-0").foreach { k => m.addRecord(k, row(s"v$k"), null); model.put(k, s"v$k") }
      val probes = order.filter(_ => round == 0 || rnd.nextInt(5) != 0) ++ Seq(1L, 12L, 5L)
      probes.foreach { v =>
        assert(value(Option(m.takeLong(v))) == Option(model.remove(v.toString)), s"$name, round $round: $v")
      }
      assert(m.size == model.size, name)
      assert(m.remainingRecords.map(_.getUTF8String(0).toString).toSeq == model.values.toArray.toSeq, name)
    }
  }

  test("takeLong after adds between lookups sees the new keys, in order or not") {
    val m = new LogRecords(hasOrdering = false)
    (0 until 100).foreach(i => m.addRecord((i * 2).toString, row(s"a$i"), null))
    assert(value(Option(m.takeLong(10))) == Some("a5"))
    assert(value(Option(m.takeLong(50))) == Some("a25"))
    m.addRecord("11", row("b"), null) // below the last lookup: the cursor starts again
    m.addRecord("50", row("c"), null) // taken before, logged again
    assert(value(Option(m.takeLong(11))) == Some("b"))
    assert(m.takeLong(10) == null)
    assert(value(Option(m.takeLong(50))) == Some("c"))
    assert(value(Option(m.takeLong(198))) == Some("a99"))
    assert(m.takeLong(199) == null)
    assert(m.size == 97)
  }

  test("takeLong and take by bytes share the entries of a large log") {
    val m = new LogRecords(hasOrdering = false)
    (0 until 5000).foreach(i => m.addRecord((i * 7919L - 100000L).toString, row(i.toString), null))
    (0 until 5000 by 2).foreach(i => assert(value(Option(m.takeLong(i * 7919L - 100000L))) == Some(i.toString)))
    (0 until 5000).foreach { i =>
      val e = m.take(UTF8String.fromString((i * 7919L - 100000L).toString))
      assert((e == null) == (i % 2 == 0), s"key of $i")
    }
    assert(m.isEmpty)
  }
}
