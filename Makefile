# The two commands of the README: `make lab` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Type-checked with --strict (issue 22 item 2): continuations checked against their functions.
STRICT_MODULES := musici/engine musici/economy.py musici/scoring.py musici/rating.py \
	musici/state.py musici/events.py musici/decisions.py

.PHONY: lab demo test lint test-slow mutation bench docs browser-deps clean install \
	test-compiled test-pure test-both bench-builds wheels

# The set-up builds the engine compiled with mypyc where a C compiler works and pure Python
# otherwise (setup.py; MUSICI_PURE_BUILD=1 or CC=false: pure on purpose), and says which.
$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/musici --version
	touch $(STAMP)

# Rebuild the compiled engine after editing its modules (import musici warns, and runs pure
# Python, while a compiled module's source differs from what was compiled).
install: $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/musici --version

# The tests rebuild a compiled build whose sources changed (a few minutes), so they test
# what was edited, compiled; a pure build (no C compiler) is left as it is.
BUILD_INFO := musici/_build_info.json
$(BUILD_INFO): $(wildcard musici/*.py musici/engine/*.py musici/strategies/*.py) | $(STAMP)
	@if grep -q '"build": "compiled"' $(BUILD_INFO) 2>/dev/null && \
		! $(BIN)/python -c "import musici, sys; sys.exit(not musici.BUILD.compiled)" 2>/dev/null; then \
		echo "rebuilding the compiled engine (its sources changed)"; \
		$(BIN)/python -m pip install --quiet --no-deps -e . && $(BIN)/musici --version; \
	fi
	@touch -c $(BUILD_INFO)

DOCS_STAMP := $(VENV)/.installed-docs

$(DOCS_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

LAB_STAMP := $(VENV)/.installed-lab

$(LAB_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	touch $(LAB_STAMP)

# The main experience: JupyterLab on the walkthrough notebook, opened as a working copy in
# lab/ (not committed; refreshed when notebooks/ has a newer one): JupyterLab autosaves
# outputs, and notebooks/ must stay stored clean (tests/test_notebooks.py).
lab: $(LAB_STAMP)
	mkdir -p lab && cp -u notebooks/*.ipynb lab/
	$(BIN)/jupyter lab lab/walkthrough.ipynb $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# One seeded game printed month by month in the terminal.
demo: $(STAMP)
	$(BIN)/musici play --players impresario,merchant,collector,random --seed 7 --months 12

# The real-browser test's tools: Debian's Chromium (needs root) and Voila + Playwright.
browser-deps: $(STAMP)
	apt-get update -qq && apt-get install -y -qq chromium
	$(BIN)/python -m pip install --quiet -e '.[test,browser]'

lint: $(STAMP)
	$(BIN)/ruff check .  # notebooks and docs hooks too
	$(BIN)/mypy
	$(BIN)/mypy --strict --follow-imports=silent $(STRICT_MODULES)  # the engine and the rule core, strictly

# The docs extra too: tests/test_docs_build.py checks the site's hooks (figures, links).
test: lint $(DOCS_STAMP) $(BUILD_INFO)
	$(BIN)/python -m pytest -q

# The suite against each build (CI runs both): the compiled build (an error if it is not the
# one installed), and pure Python on the same install (MUSICI_PURE=1 loads every module
# from source; subprocesses inherit it).
test-compiled: lint $(DOCS_STAMP) $(BUILD_INFO)
	@$(BIN)/python -c "import musici, sys; sys.exit(0 if musici.BUILD.compiled else \
		'make test-compiled: the installed build is ' + musici.BUILD.describe())"
	$(BIN)/python -m pytest -q

test-pure: lint $(DOCS_STAMP)
	MUSICI_PURE=1 $(BIN)/python -m pytest -q

test-both: test-compiled test-pure

# Compiled against pure Python, paired in one run (CPU time; docs/performance.md).
bench-builds: $(STAMP)
	$(BIN)/python benchmarks/bench_builds.py

# Linux wheels for every supported CPython (cibuildwheel's config in pyproject.toml; needs
# Docker or Podman): each compiled, tested by its --version line.
wheels: $(STAMP)
	$(BIN)/python -m pip install --quiet 'cibuildwheel>=2.21'
	$(BIN)/cibuildwheel --platform linux --output-dir wheelhouse

test-slow: $(STAMP) mutation
	$(BIN)/python -m pytest -q -m slow

MUTATION_STAMP := $(VENV)/.installed-mutation

$(MUTATION_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[mutation]'
	touch $(MUTATION_STAMP)

# Mutation score of the rule core (scoring, economy, rating; [tool.mutmut] in pyproject.toml):
# at least 98 % of the non-equivalent mutants killed (about 8 minutes).
mutation: $(MUTATION_STAMP)
	$(BIN)/python benchmarks/mutation_score.py

# The documentation site (docs/, notebooks/ as tutorials, API reference), strict: a warning fails.
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info build musici/_build_info.json
	find musici -name '*.so' -delete
