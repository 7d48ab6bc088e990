// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.keygen

import java.io.File
import java.nio.file.Files
import java.time.{LocalDate, OffsetDateTime}

import scala.jdk.CollectionConverters._

import com.fasterxml.jackson.databind.{JsonNode, ObjectMapper}
import org.apache.hadoop.fs.Path
import org.apache.parquet.example.data.Group
import org.apache.parquet.hadoop.ParquetReader
import org.apache.parquet.hadoop.example.GroupReadSupport
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String
import org.scalatest.funsuite.AnyFunSuite

import io.pyhudi.avro.AvroSchemaConverter
import io.pyhudi.config.WriteConfig
import io.pyhudi.table.TableConfig
import io.pyhudi.testutil.Corpus

/**
 * Every row of the corpus tables written by Apache Hudi 0.14 gets back the record key and
 * partition path Hudi stored, with the key generator configured from the table's
 * hoodie.properties as a writer to that table would configure it.
 */
class KeyGenCorpusSuite extends AnyFunSuite {
  import KeyGenCorpusSuite.Setup

  private val tables = Seq("cow/v6_complexkeygen_hivestyle", "cow/v6_simplekeygen_nonhivestyle",
    "cow/v6_nonpartitioned", "cow/v6_timebasedkeygen_nonhivestyle")

  private def setup(name: String): Setup = {
    val dir = Corpus.extract(name)
    val props = Files.readAllBytes(new File(dir, ".hoodie/hoodie.properties").toPath)
    val table = TableConfig.parse(props, dir.getPath)
    val schema = AvroSchemaConverter.toStructType(AvroSchemaConverter.parse(table.createSchema.get))
    // hoodie.properties carries the hive-style, url-encode and hoodie.keygen.timebased.* keys
    // under their write option names; the fields and class are persisted under table keys.
    val options = table.props ++ Map(
      WriteConfig.RecordKeyField.key -> table.recordKeyFields.mkString(","),
      WriteConfig.PartitionPathField.key -> table.partitionFields.mkString(","),
      WriteConfig.KeyGeneratorClass.key -> table.keyGeneratorClass.get) ++
      // Hudi 0.14 did not persist the timestamp type; the table's SQL set DATE_STRING.
      (if (!table.isTimestampKeyGen) Map.empty
       else Map(WriteConfig.TimebasedTimestampType.key -> "DATE_STRING"))
    Setup(dir, schema, new KeyGenerator(KeyGenConfig.fromOptions(options, schema), schema))
  }

  private def expectedRows(name: String): Seq[JsonNode] = {
    val root = new ObjectMapper().readTree(Corpus.expected(name).get)
    val sections = Seq("as_of", "incremental").flatMap(s => root.get(s).elements().asScala)
    (root.get("snapshot").elements().asScala.toSeq ++ sections.flatMap(_.elements().asScala))
      .distinctBy(_.toString)
  }

  /** A row with every primitive column of the JSON row filled in; other columns null. */
  private def fromJson(schema: StructType, json: JsonNode): InternalRow =
    new GenericInternalRow(schema.fields.map { f =>
      val v = json.get(f.name)
      if (v == null || v.isNull) null
      else f.dataType match {
        case IntegerType => v.asInt(): Any
        case LongType => v.asLong()
        case BooleanType => v.asBoolean()
        case FloatType => v.asText.toFloat
        case DoubleType => v.asText.toDouble
        case StringType => UTF8String.fromString(v.asText)
        case d: DecimalType => Decimal(BigDecimal(v.asText), d.precision, d.scale)
        case DateType => LocalDate.parse(v.asText).toEpochDay.toInt
        case TimestampType =>
          val i = OffsetDateTime.parse(v.asText).toInstant
          i.getEpochSecond * 1000000L + i.getNano / 1000
        case _ => null
      }
    })

  /** Meta columns and the key columns read straight from each base file with parquet-hadoop. */
  private def parquetRows(s: Setup): Seq[(String, String, InternalRow)] = {
    val columns = (s.generator.config.recordKeyFields ++ s.generator.config.partitionFields).toSet
    Corpus.filesUnder(s.table, _.endsWith(".parquet")).flatMap { file =>
      val reader = ParquetReader.builder(new GroupReadSupport(), new Path(file.getPath)).build()
      try Iterator.continually(reader.read()).takeWhile(_ != null).map { g =>
          val row = new GenericInternalRow(s.schema.fields.map { f =>
            if (!columns(f.name) || g.getFieldRepetitionCount(f.name) == 0) null
            else f.dataType match {
              case IntegerType => g.getInteger(f.name, 0): Any
              case StringType => UTF8String.fromString(g.getString(f.name, 0))
              case other => fail(s"unexpected key column type $other")
            }
          })
          (meta(g, "_hoodie_record_key"), meta(g, "_hoodie_partition_path"), row: InternalRow)
        }.toList
      finally reader.close()
    }
  }

  private def meta(g: Group, name: String): String = g.getString(name, 0)

  tables.foreach { name =>
    test(s"$name: keys and partition paths of the expected rows") {
      val s = setup(name)
      val rows = expectedRows(name)
      assert(rows.size >= 4)
      rows.foreach { json =>
        val row = fromJson(s.schema, json)
        assert(s.generator.recordKey(row) == json.get("_hoodie_record_key").asText, json)
        assert(s.generator.partitionPath(row) == json.get("_hoodie_partition_path").asText, json)
      }
    }

    test(s"$name: keys and partition paths stored in the base files") {
      val s = setup(name)
      val rows = parquetRows(s)
      assert(rows.nonEmpty)
      rows.foreach { case (key, path, row) =>
        assert(s.generator.recordKey(row) == key)
        assert(s.generator.partitionPath(row) == path)
      }
    }
  }

  test("the configured generators are the ones the tables name") {
    assert(tables.map(t => setup(t).generator.config.generator) ==
      Seq(KeyGenType.Complex, KeyGenType.Simple, KeyGenType.NonPartitioned, KeyGenType.TimestampBased))
    val ts = setup("cow/v6_timebasedkeygen_nonhivestyle").generator.config.timestamp.get
    assert(ts == TimestampKeyGenConfig(
      "DATE_STRING", Some("yyyy-MM-dd'T'HH:mm:ss.SSSZ"), "yyyy/MM/dd/HH", "UTC", "SECONDS"))
  }
}

object KeyGenCorpusSuite {
  private final case class Setup(table: File, schema: StructType, generator: KeyGenerator)
}
