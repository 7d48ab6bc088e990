// SPDX-License-Identifier: Apache-2.0
package io.pyhudi

/**
 * Typed options: every key pyhudi reads is defined once as a [[config.ConfigEntry]] (key,
 * default, doc, valid values) in [[config.ReadConfig]] or [[config.WriteConfig]]; `docs/options.md`
 * is generated from these definitions.
 */
package object config
