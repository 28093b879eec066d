# Two entry points: `make build` and `make test`. Both create the virtual
# environment on first use, so a fresh clone needs nothing installed by hand.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: build test check clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
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

test: $(TEST_STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf build
