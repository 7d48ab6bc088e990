// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.write

/**
 * Executor-side writers. A handle owns one file group for one instant: a create handle writes
 * new base files, a merge handle rewrites a group's base file with the incoming records merged
 * in (copy-on-write), an append handle adds a log file of updates and deletes to a group's
 * latest slice (merge-on-read). Each records a marker before it creates a file and reports a
 * [[handle.HandleResult]].
 */
package object handle
