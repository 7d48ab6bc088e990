// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * File system access through Hadoop's `FileSystem`: listing, atomic publication and renames,
 * Java properties files, and a serializable Hadoop configuration for executors.
 */
package object storage
