// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * A Hudi table on storage: its base path, the config in `.hoodie/hoodie.properties` and the
 * timeline. Opening a table validates everything a reader relies on, so that unsupported
 * versions and layouts fail before any data is read.
 */
package object table
