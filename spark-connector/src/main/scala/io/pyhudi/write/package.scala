// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Writing: what each write operation does to a table, routed by [[write.WritePath]], planned as
 * plain values ([[write.plan.WritePlan]]) and executed by handles that each own one file group
 * ([[write.handle]]); [[write.commit]] publishes the result on the timeline. The Spark layer
 * only distributes this work.
 */
package object write
