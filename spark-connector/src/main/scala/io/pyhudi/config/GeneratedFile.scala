// SPDX-License-Identifier: Apache-2.0
package io.pyhudi.config

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

/**
 * A file of the repository generated from definitions in code (`docs/options.md`,
 * `docs/errors.md`, `python/pyhudi/options.py`): `make docs` runs `main` with the file's path,
 * and a suite fails while the file on disk differs from `text`.
 */
trait GeneratedFile {

  def text: String

  def main(args: Array[String]): Unit =
    if (args.isEmpty) print(text) else Files.write(Paths.get(args(0)), text.getBytes(StandardCharsets.UTF_8))
}
