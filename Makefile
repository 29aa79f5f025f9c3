# The two commands of the README. Both create .venv and install what they need on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: serve play test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/croupier warm
	touch $(STAMP)

## serve: the live tables on http://127.0.0.1:8000 (SQLite file croupier.db, demo tables and accounts)
serve: $(STAMP)
	$(BIN)/croupier serve

## play: sit at a Macau 1983 blackjack table in the terminal
play: $(STAMP)
	$(BIN)/croupier play blackjack --rules macau-1983

## test: lint, type-check and run the whole test suite
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n 2 --dist loadfile -q

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/baccarat.py
	$(BIN)/python benchmarks/analysis.py
	$(BIN)/python benchmarks/simulate_baccarat.py
	$(BIN)/python benchmarks/rl.py --seconds 0.5

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
