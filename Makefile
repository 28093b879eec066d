# Two entry points: `make build` and `make test`. Both create the virtual
# environment on first use, so a fresh clone needs nothing installed by hand.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
DOCS_STAMP := $(VENV)/.installed-docs
CHROMIUM := /usr/bin/chromium

.PHONY: build test lint check clean browser docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP) $(DOCS_STAMP)

$(DOCS_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@ $(STAMP)

build: $(STAMP)
	$(BIN)/deckpress check --lang all
	$(BIN)/deckpress build
	$(BIN)/deckpress stats --quiet --simulate --report build/stats > /dev/null
	$(BIN)/deckpress booklet --quiet
	for file in cards/*/lang/*.yaml; do [ -e "$$file" ] || continue; deck=$${file%/lang/*}; code=$$(basename "$$file" .yaml); \
	  $(BIN)/deckpress build "$$deck" --lang "$$code" --quiet && \
	  $(BIN)/deckpress booklet "$$deck" --lang "$$code" --quiet || exit $$?; done
	for deck in cards/*/; do $(BIN)/deckpress export "$$deck" --quiet --png build/png/$$(basename "$$deck") --tts build/tts || exit $$?; done

check: $(STAMP)
	$(BIN)/deckpress check

# The suite runs on every core; a test module's shared fixtures (a deck built once for many
# assertions, the site followed once) stay with one worker.
test: lint browser
	$(BIN)/python -m pytest -n auto --dist loadscope

# The documentation site, into build/site/: every picture drawn anew from the pages' own
# examples (which must do what the pages say), then built strictly, so a broken link, a
# missing page or picture is an error. It needs no network. (`make test` builds it too.)
docs: $(DOCS_STAMP)
	$(BIN)/python docs/make_pictures.py
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict

# Lint and types: a new finding fails `make test` like a failing test.
lint: $(TEST_STAMP)
	$(BIN)/ruff check generator tests benchmarks docs
	$(BIN)/mypy

# The preview's tests drive a real browser: Debian's chromium, through Playwright (installed
# with the test extras; it never downloads a browser of its own). Installed here when we may
# (CI runs as root on Debian); elsewhere those tests are skipped, except under CI=true.
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "note: no $(CHROMIUM) (Debian package chromium): the browser tests will be skipped"; \
	  fi; \
	fi

clean:
	rm -rf build
