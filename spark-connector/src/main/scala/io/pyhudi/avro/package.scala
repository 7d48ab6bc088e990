// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Avro as Hudi uses it: the table schema is an Avro record schema in commit metadata
 * (format doc §3.1) and merge-on-read log blocks hold Avro-encoded records, each block with its
 * own writer schema (§6.4–6.5). This package maps Avro schemas to Spark types
 * ([[avro.AvroSchemaConverter]]), Avro binary records to Catalyst rows ([[avro.AvroRowDecoder]]) and
 * back ([[avro.SparkToAvro]], [[avro.AvroRowEncoder]]) for log blocks this connector writes,
 * without Spark's `spark-avro` module, which pyspark does not ship.
 */
package object avro
