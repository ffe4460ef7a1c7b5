# The two commands a newcomer needs: `make run` and `make test`. Both build .venv on first use.
VENV ?= .venv
PORT ?= 8000
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/zdb serve --port $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest --cov=zdb.rating --cov-branch --cov-report=term-missing:skip-covered --cov-fail-under=100

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py --scale 0.1
