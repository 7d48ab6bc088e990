// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/**
 * Table services from Spark: compaction runs one task per planned file slice, clean deletes on
 * executors, archival runs on the driver.
 */
package object services
