// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.spark

/** Translating Spark filters on partition columns into partition pruning. */
package object expr
