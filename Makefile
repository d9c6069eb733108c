# The README's commands. `make demo` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
JOBS ?= 2

.PHONY: setup demo test quick lint format bench golden clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# torch is pinned (==2.13.0) in the train extra: that CPU build is on this machine's disk.
	$(BIN)/python -m pip install --quiet -e ".[train,dev,sb3,export,ray,serve]"
	touch $(STAMP)

demo: setup
	$(BIN)/shengji demo --seed 7
	rm -rf runs/demo
	$(BIN)/shengji train --config configs/quick.yaml run_name=demo
	$(BIN)/shengji arena --agents ppo:runs/demo/checkpoint.pt heuristic greedy random \
		--deals 100 --jobs $(JOBS) --out runs/demo/arena.json --plot runs/demo/arena.png

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n $(JOBS) -q

# The fast loop while working: lint and every test but the slow marks (under a minute).
quick: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest -n $(JOBS) -q -m "not slow"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/shengji bench

golden: setup
	$(BIN)/python -m shengji_env.demo --write-golden tests/golden/hand_2decks_seed7.txt

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
