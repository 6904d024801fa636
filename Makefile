# Two commands do all set-up on a fresh machine with Python 3.11 and make:
#   make run   - the web platform on http://127.0.0.1:8000 (creates .venv first)
#   make test  - lint, type-check and run the full test suite
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest fuzz bench clean

$(STAMP): pyproject.toml constraints.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/skydeck serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# tests/web drive Debian's Chromium; without it they are skipped, and said so once
CHROMIUM ?= /usr/bin/chromium
export SKYDECK_CHROMIUM := $(CHROMIUM)
BROWSER_NOTE = @test -x $(CHROMIUM) || echo "NOTE: browser tests (tests/web) skipped: $(CHROMIUM) is absent (Debian: sudo apt-get install chromium)"

pytest: $(STAMP)
	$(BROWSER_NOTE)
	$(BIN)/python -m pytest -q -n 2

test: lint typecheck pytest

# the property tests with fresh random examples (``make test`` runs a fixed draw)
fuzz: $(STAMP)
	$(BROWSER_NOTE)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -q -n 2

bench: $(STAMP)
	$(BIN)/skydeck bench stellarion

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
