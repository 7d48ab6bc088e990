// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/**
 * The DataSource V2 source `pyhudi`: table, scan builder (filter and column pushdown), scan and
 * partition reader factory over the engine-neutral read planning.
 */
package object source
