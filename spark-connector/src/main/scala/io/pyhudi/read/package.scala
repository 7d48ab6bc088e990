// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Read planning and execution that does not depend on Spark's connector API: which file slices
 * a query reads ([[read.ScanPlanner]]) and how one slice's base file and log blocks become rows
 * ([[read.FileSliceReader]]).
 */
package object read
