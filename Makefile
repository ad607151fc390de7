# The two commands a newcomer needs: `make serve` and `make test`.
# Each creates the virtual environment (.venv) on first use, saying so first;
# `make test` also installs Chromium for the page's browser test where it is
# missing (scripts/ensure_browser.py says so before it does).
# `make serve GRPC=HOST:PORT HTTP=HOST:PORT` picks the addresses.
# `make run` reproduces the seeds' Wordle table.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
GRPC ?= 127.0.0.1:50051
HTTP ?= 127.0.0.1:8080

.PHONY: serve run test lint docs bench catalog catalog-quick protos vectors clean

# The compiled kernels (setup.py) are built in place by the editable install: a
# change to their C sources installs again.
KERNELS := setup.py $(wildcard builder/*.c builder/*.h builder/optimal/*.c builder/optimal/*.h)

$(STAMP): pyproject.toml $(KERNELS)
	@echo "make: installing into $(VENV): guesswork-solver (editable, its C kernels compiled) and its dependencies from PyPI, dev tools included (about 0.7 GB; once)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The main job: the lookup service on the shipped catalog: gRPC on $(GRPC)
# (default 127.0.0.1:50051), HTTP/JSON and the page on http://$(HTTP)/ (default 127.0.0.1:8080).
serve: $(STAMP)
	$(BIN)/guesswork-serve --address $(GRPC) --http $(HTTP)

# Reproduce the seeds' Wordle table.
run: $(STAMP)
	@for mode in hard normal; do for metric in max expectation neg_entropy; do \
		$(BIN)/guesswork-build evaluate --game wordle --targets wordle-answers-2309 \
			--mode $$mode --metric $$metric; echo; done; done

test: $(STAMP)
	$(BIN)/python scripts/ensure_browser.py
	$(BIN)/ruff check .
	$(BIN)/python scripts/typecheck.py --strict
	$(BIN)/python -m mypy --strict docs/_ext
	$(BIN)/python -m pytest -q -n auto --dist worksteal

# The documentation site, into docs/_build/html; warnings (dead links included) are errors.
docs: $(STAMP)
	$(BIN)/python -m sphinx -W --keep-going -n -b html docs docs/_build/html

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_greedy.py
	$(BIN)/python benchmarks/bench_probe.py
	$(BIN)/python benchmarks/bench_bee.py
	$(BIN)/python benchmarks/bench_service.py
	$(BIN)/python benchmarks/bench_http.py
	$(BIN)/python benchmarks/bench_rejection.py
	$(BIN)/python benchmarks/bench_lookup.py
	$(BIN)/python benchmarks/bench_approx_entropy.py
	$(BIN)/python benchmarks/bench_optimal.py
	$(BIN)/python benchmarks/bench_capped.py
	$(BIN)/python benchmarks/bench_dask.py
	$(BIN)/python benchmarks/bench_prior.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_backtest.py

# Regenerate the gRPC code from protos/guesswork/v1/guesswork.proto (a test checks it).
protos: $(STAMP)
	$(BIN)/python scripts/gen_protos.py

# Regenerate the conformance vectors under tests/vectors (a test checks them byte for byte).
vectors: $(STAMP)
	$(BIN)/python scripts/gen_vectors.py

# Rebuild the shipped catalog (a test checks it is reproduced byte for byte).
catalog: $(STAMP)
	$(BIN)/guesswork-build build-all --catalog policies/catalog.sqlite

# The same, but the slow policies (long enable1 words, the global Wordle proofs:
# about half an hour together) are taken from the shipped file after checking them.
catalog-quick: $(STAMP)
	cp policies/catalog.sqlite $(VENV)/catalog-previous.sqlite
	$(BIN)/guesswork-build build-all --catalog policies/catalog.sqlite \
		--reuse $(VENV)/catalog-previous.sqlite

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
