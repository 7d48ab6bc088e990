# The command surface; every target is a thin alias for a script under dev/ or build/.
.PHONY: help demo test test-scala jar python docs check format clean bench bench-indexes

help:
	@echo "make demo        run the main job (examples/demo.py on local Spark)"
	@echo "make test        run every test (what CI runs)"
	@echo "make test-scala  Scala unit suites only"
	@echo "make jar         build the connector jar"
	@echo "make python      (re)install pyhudi into .venv"
	@echo "make docs        regenerate docs/options.md, docs/errors.md and python/pyhudi/options.py"
	@echo "make check       Scala and Python formatting, license headers, lint, strict types (part of make test)"
	@echo "make format      format Scala and python/pyhudi, add missing license headers"
	@echo "make bench       side-by-side benchmark (bench/run.py, default size) into docs/benchmarks"
	@echo "make bench-indexes  pyhudi against Apache Hudi for every index type into docs/benchmarks"

demo:
	dev/run-demo.sh

test:
	dev/run-tests.sh

test-scala:
	build/sbt connector/test

jar:
	build/sbt connector/assembly

python:
	dev/python-env.sh .venv requirements/test.txt

docs:
	build/sbt "connector/runMain io.pyhudi.config.ConfigDocs docs/options.md" \
		"connector/runMain io.pyhudi.config.PythonOptions python/pyhudi/options.py" \
		"connector/runMain io.pyhudi.errors.ErrorDocs docs/errors.md"

check:
	dev/check.sh

format:
	build/sbt scalafmtAll scalafmtSbt
	dev/license-headers.sh --fix
	.venv/bin/ruff format .
	.venv/bin/ruff check --fix .

bench:
	python3 bench/run.py

bench-indexes:
	python3 bench/run.py --indexes BLOOM,SIMPLE,GLOBAL_BLOOM,GLOBAL_SIMPLE,BUCKET

clean:
	rm -rf target spark-connector/target project/target python/pyhudi/jars build/lib dist *.egg-info
