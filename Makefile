# Two commands: `make play` and `make test`. Each sets up .venv on its own (the project with
# its `local` extra, SimCord for local play, and `dev`, the test tools); the stamp is
# redone whenever pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
ARGS ?=
# make test's test processes (pytest-xdist): 2 on the 2-core machine it is measured on.
TEST_JOBS ?= 2

.PHONY: test play lint typecheck soak soak-cluster bench clean others-weights

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[local,dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict engine bot tools

test: lint typecheck
	$(BIN)/python -m pytest -q -n $(TEST_JOBS) --dist worksteal

soak: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

# Several cluster processes on one database, killed, frozen and stopped while they play
# (its short version is in `make test`, its long one in `make soak`).
soak-cluster: $(STAMP)
	$(BIN)/python -m tools.soak_cluster $(ARGS)

bench: $(STAMP)
	$(BIN)/python -m tools.bench_engine

# The model of how the others follow (issue 40): its data under /tmp, the fit into
# engine/ai/others_weights.json and the offline gate (needs the `train` extra: numpy).
others-weights: $(STAMP)
	$(BIN)/python -m tools.policy_data --seed 101 --deals 600 --jobs 2 --out /tmp/others_train.jsonl.gz
	$(BIN)/python -m tools.policy_data --seed 202 --deals 200 --jobs 2 --out /tmp/others_test.jsonl.gz
	$(BIN)/python -m tools.policy_fit --data /tmp/others_train.jsonl.gz
	$(BIN)/python -m tools.policy_gate --train /tmp/others_train.jsonl.gz --test /tmp/others_test.jsonl.gz

play: $(STAMP)
	$(BIN)/python -m bot $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
