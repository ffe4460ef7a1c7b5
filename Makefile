# The two commands a newcomer needs: `make run` and `make test`. Both build .venv on first use.
VENV ?= .venv
PORT ?= 8000
# `make run` keeps its embedded database beside the project (var/zdb.sqlite3); elsewhere ZDB's
# home folder is ZDB_HOME, else ~/.local/share/zdb. Commands in a second terminal need the same.
ZDB_HOME ?= $(CURDIR)/var
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The tests run in one process per core (pytest-xdist); TEST_PROCESSES=0 runs them in this one.
TEST_PROCESSES ?= auto

.PHONY: run test lint bench lock mutation mutation-report

# The first build takes a minute or two: each step says what it does, and pip shows each package
# as it is installed (no --quiet), so that a newcomer sees progress, not silence.
$(STAMP): pyproject.toml
	@echo "==> creating the virtual environment in $(VENV)"
	python3 -m venv $(VENV)
	@echo "==> updating pip"
	$(BIN)/pip install --progress-bar on --upgrade pip
	@echo "==> installing zdb and its test tools (a minute or two on the first run)"
	$(BIN)/pip install --progress-bar on -e '.[test]'
	touch $(STAMP)
	@echo "==> $(VENV) is ready"

run: $(STAMP)
	ZDB_HOME='$(ZDB_HOME)' $(BIN)/zdb serve --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/python .ci/import_graph.py

test: lint
	$(BIN)/pytest -n $(TEST_PROCESSES) --dist loadscope --cov=zdb.rating --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=100

# Mutation testing (docs/mutation.md): long, never part of `make test`. What is mutated and which
# tests run is [tool.mutmut] in pyproject.toml; MUTANTS narrows a run to mutant names (globs),
# e.g. make mutation MUTANTS='zdb.rating.rulesets.*'. Results stay in mutants/ (a run goes on
# where the last one stopped); `make mutation-report` counts them per area. The engine's
# property tests try MUTATION_EXAMPLES random examples each instead of their fixed 150 or 2000
# (ZDB_PROPERTY_EXAMPLES): a surviving mutant runs every test that calls its function, and
# those examples were most of that time.
MUTANTS ?=
MUTATION_CHILDREN ?= 2
MUTATION_EXAMPLES ?= 20
MUTATION_STAMP := $(VENV)/.mutation-installed
$(MUTATION_STAMP): $(STAMP)
	$(BIN)/pip install -e '.[test,mutation]'
	touch $(MUTATION_STAMP)

mutation: $(MUTATION_STAMP)
	ZDB_PROPERTY_EXAMPLES=$(MUTATION_EXAMPLES) nice -n 19 $(BIN)/mutmut run --max-children $(MUTATION_CHILDREN) $(MUTANTS)
	$(BIN)/python tests/mutation_report.py

mutation-report: $(MUTATION_STAMP)
	$(BIN)/python tests/mutation_report.py

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py --scale 0.1

# requirements.lock: the pinned versions (with hashes) the Docker image installs. After a change
# to the dependencies in pyproject.toml: `make lock` (keeps the other pins); every pin at its
# newest: `make lock LOCK_FLAGS=--upgrade`. CI installs the wheel with it (tests/packaging).
LOCK_FLAGS ?=
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
		--custom-compile-command 'make lock' $(LOCK_FLAGS) --output-file requirements.lock
