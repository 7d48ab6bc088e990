// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark.source

import org.apache.spark.sql.connector.read.InputPartition

import io.pyhudi.read.SliceSplit

/** One task's work: splits of file slices ([[io.pyhudi.read.SliceSplits]]), read one after another. */
final case class PyhudiInputPartition(splits: Seq[SliceSplit]) extends InputPartition
