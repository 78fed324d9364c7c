# The two quick-start commands, `make serve` and `make test`, and what CI runs.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8080
STAMP := $(VENV)/.installed

.PHONY: serve test fuzz lint bench clean venv

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "needs $(PYTHON)" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)

# The editable install maps the import names onto other folders (pyproject.toml), so setuptools
# installs it through an import finder and says so with an information-only "Editable
# installation." warning at every install; that one is silenced, every other warning shows.
# The pip upgrade is quieter still: only its errors (a machine's own pip settings may warn).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --quiet --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

venv: $(STAMP)

serve: $(STAMP)
	@$(BIN)/geoserver-emulator serve --host 127.0.0.1 --port $(PORT) --scenario stock

test: $(STAMP)
	$(BIN)/python -m pytest -n auto -q

fuzz: $(STAMP)
	GEOSERVER_EMULATOR_FUZZ=long $(BIN)/python -m pytest -q -p no:cacheprovider tests/fuzz

# mypy checks the packages under their import names: links in its cache folder map them onto
# emulator/ and plugin/ (the editable install's import hook is invisible to it)
TYPED := .mypy_cache/src

lint: $(STAMP)
	$(BIN)/python -m ruff check emulator plugin tests benchmarks
	$(BIN)/python -m ruff format --check emulator plugin tests benchmarks
	@mkdir -p $(TYPED)
	@ln -sfn ../../emulator $(TYPED)/geoserver_emulator
	@ln -sfn ../../plugin $(TYPED)/geoserver_emulator_pytest
	MYPYPATH=$(TYPED) $(BIN)/python -m mypy -p geoserver_emulator -p geoserver_emulator_pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis
