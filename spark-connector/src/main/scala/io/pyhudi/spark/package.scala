// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Spark glue: the only code that imports Spark's connector API. It adapts the engine-neutral
 * packages (timeline, filegroup, read, ...) to DataSource V2 and keeps no logic of its own
 * beyond translation.
 */
package object spark
