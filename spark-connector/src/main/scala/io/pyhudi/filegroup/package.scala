// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * File groups and file slices. A file group is every file of one file id in one partition; a
 * file slice is one base file plus the log files written against that base file's instant. The
 * [[filegroup.FileSystemView]] picks, for a point on the timeline, the slice of each group a
 * query reads.
 */
package object filegroup
