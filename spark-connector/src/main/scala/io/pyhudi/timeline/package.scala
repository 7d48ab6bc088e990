// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * The timeline: the ordered instants in `.hoodie/` that record every action on a table. An
 * instant is one action (commit, deltacommit, replacecommit, compaction, rollback, clean, ...)
 * at one instant time, in one of three states (requested, inflight, completed). Readers trust
 * only completed instants; data files of any other instant are invisible.
 */
package object timeline
