# The README's commands. `make demo` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= 2

CORE_SOURCES := $(wildcard csrc/*.cpp csrc/*.hpp)
CORE_STAMP := $(VENV)/.core-built
PYBIND_INCLUDES = $(shell $(BIN)/python -c "import pybind11; print(pybind11.get_include())")

RLLIB_VENV := .venv-rllib

.PHONY: setup core demo test test-python test-rllib quick lint format bench golden clean node docs

setup: $(STAMP) $(CORE_STAMP)

# The editable install builds the compiled core (shengji_env/_core*.so) from csrc/.
$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch is pinned (==2.13.0) in the train extra: that CPU build is on this machine's disk.
	$(BIN)/python -m pip install --quiet -e ".[train,dev,docs,sb3,export,ray,serve,torchrl]"
	touch $(STAMP) $(CORE_STAMP)

# Rebuild the core in place after editing csrc/ (what the editable install built).
core $(CORE_STAMP): $(CORE_SOURCES) | $(STAMP)
	$(BIN)/python setup.py --quiet build_ext --inplace --force
	touch $(CORE_STAMP)

# A seeded hand, a policy trained in under a minute (configs/quick.yaml), rated against the
# rule bots, the shipped default bot against the heuristic, and what to run next.
demo: setup
	$(BIN)/shengji demo --seed 7
	rm -rf runs/demo
	$(BIN)/shengji train --config configs/quick.yaml run_name=demo
	$(BIN)/shengji arena --agents ppo:runs/demo/checkpoint.pt heuristic greedy random --deals 400 \
		--jobs $(JOBS) --out runs/demo/arena.json --plot runs/demo/arena.png
	$(BIN)/shengji arena --agents default heuristic --deals 300 --start mid_match \
		--jobs $(JOBS) --out runs/demo/default.json
	$(BIN)/shengji demo --next-steps

# Everything this machine supports: lint, the docs site, the suite, the suite again on the
# Python engine, RLlib in its venv. The browser tests need Chromium and the Node.js check
# npm; where they are missing those tests are skipped and the summary says how to enable
# them. .ci/run installs them and sets SHENGJI_REQUIRE_BROWSER/NODE=1 to require them.
test: lint docs $(if $(shell command -v npm),node)
	SHENGJI_REQUIRE_CORE=$(if $(shell command -v g++),1,0) $(BIN)/pytest -n $(JOBS) -q
	$(MAKE) --no-print-directory test-python
	$(MAKE) --no-print-directory test-rllib

# The docs site, every warning an error (broken links, pages missing from the nav).
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# onnxruntime-node for the Node.js check of exported policies (node/golden.mjs). Its
# install script only fetches GPU builds; the CPU binaries ship inside the npm package.
node: node/node_modules/.installed
node/node_modules/.installed: node/package.json node/package-lock.json
	cd node && npm ci --ignore-scripts --no-audit --no-fund --silent
	touch $@

# The suite (less the slow marks) with every env on the pure-Python reference engine.
test-python: setup
	SHENGJI_ENGINE=python $(BIN)/pytest -n $(JOBS) -q -m "not slow"

# The fast loop while working: lint and every test but the slow marks (under a minute).
quick: lint
	$(BIN)/pytest -n $(JOBS) -q -m "not slow"

# The RLlib recipe in its own venv: RLlib 2.60 pins gymnasium 1.2.2 (the main venv has 1.4).
test-rllib:
	test -x $(RLLIB_VENV)/bin/python || $(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(RLLIB_VENV)/bin/python -m pip install --quiet torch==2.13.0 -e ".[rllib,dev]"
	$(RLLIB_VENV)/bin/pytest -q -p no:cacheprovider tests/test_rllib.py

# Python: ruff. C++: clang-format, and a build with every warning an error.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/clang-format --dry-run --Werror csrc/*.cpp csrc/*.hpp
	g++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I$(PYBIND_INCLUDES) \
		-I$(shell $(BIN)/python -c "import sysconfig; print(sysconfig.get_paths()['include'])") csrc/*.cpp

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .
	$(BIN)/clang-format -i csrc/*.cpp csrc/*.hpp

bench: setup
	$(BIN)/shengji bench

golden: setup
	$(BIN)/python -m shengji_env.demo --write-golden tests/golden/hand_2decks_seed7.txt

clean:
	rm -rf $(VENV) $(RLLIB_VENV) .pytest_cache .ruff_cache build site shengji_env/_core*.so
