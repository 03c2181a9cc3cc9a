# attention-by-hand: every command a user or CI needs. `make demo`, `make test` and `make bench`
# install what they need and is missing first (tools/install-deps.sh demo, test or bench): the
# demo only what the page needs.
.PHONY: demo test suites build api deps deps-demo deps-bench wasm native python sanitize bundle format \
	format-check test-native test-sanitize test-fuzz test-node test-python test-browser \
	test-hosts deps-hosts fuzz mutate bench clean train streams wheel venv

# The Node files run two at a time, one a core: they share no file and time nothing.
NODE_TEST := node --test --test-reporter=tap --test-concurrency=2
# Browser files, each with its own server and Chromium, spend most of their time waiting on a
# page. The browser suite runs its files the largest first, three at a time
# (tools/browser-suite.mjs; the third fills the others' waits for no more CPU time, as
# docs/testing.md measures); make test-hosts runs its files two at a time, by name.
BROWSER_TEST := node --test --test-reporter=tap --test-concurrency=2
# Every suite runs through tools/suite.mjs, which reads its counts and fails when it ran none.
SUITE := node tools/suite.mjs
SUITES := native sanitize fuzz node python browser
# How long `make test` fuzzes; `make fuzz` fuzzes until Ctrl+C, or for FUZZ_SECONDS when given.
TEST_FUZZ_SECONDS := 60
FUZZ := build/sanitize/attention_fuzz -timeout=120 -rss_limit_mb=4096 -print_final_stats=1 \
	-artifact_prefix=build/sanitize/ build/sanitize/corpus tests/fuzz/corpus
CXX_SOURCES = $(shell git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp')

demo: deps-demo wasm bundle
	node tools/serve.mjs web 8000

# Every suite runs even when one fails (make -k), then one summary of what ran and passed. The
# suites run with BUILT=1: what `build` made just before is not made again (see `needs`). The
# three compilations share the two cores (-j2; -O: each one's output whole, when it ends).
test: deps
	@$(MAKE) --no-print-directory -j2 -O wasm native sanitize
	@$(MAKE) --no-print-directory build format-check
	@rm -rf build/results
	@status=0; $(MAKE) --no-print-directory -k suites BUILT=1 || status=$$?; \
	  node tools/summary.mjs $(SUITES) && exit $$status

# A suite's prerequisites from `build`: none under `make test`, which has just built them.
needs = $(if $(BUILT),,$(1))

# The fuzzer takes one core for its TEST_FUZZ_SECONDS: the native, sanitize and Python suites,
# one core between them, run beside it (its output follows theirs); then the node and browser
# suites, which take both.
suites:
	@mkdir -p build
	@status=0; \
	$(MAKE) --no-print-directory test-fuzz > build/fuzz.log 2>&1 & fuzz=$$!; \
	$(MAKE) --no-print-directory -k test-native test-sanitize test-python || status=1; \
	wait $$fuzz || status=1; cat build/fuzz.log; \
	$(MAKE) --no-print-directory -k test-node test-browser || status=1; \
	exit $$status

build: deps wasm native python bundle streams venv

# The API's text written again from the core's declarations (tools/api.mjs): the d.ts interfaces,
# docs/api.md's field tables, _core.pyi's TypedDicts. A test fails while they are stale.
api: wasm
	node tools/api.mjs

deps:
	@tools/install-deps.sh test

deps-demo:
	@tools/install-deps.sh demo

deps-hosts:
	@tools/install-deps.sh hosts

deps-bench:
	@tools/install-deps.sh bench

wasm:
	@[ -f build/wasm/CMakeCache.txt ] || cmake --preset wasm
	cmake --build --preset wasm -j2

bundle: wasm
	node tools/bundle.mjs

# The real model: trained natively (about 5 minutes here), seeded and deterministic; writes the
# weights, configuration, vocabulary, loss curve and head measurements to web/labs/gpt/, then
# what its loss plot and its heads' step read beside them: the baselines and the ablations.
train: deps native streams
	build/native/attention_train --out web/labs/gpt
	node tools/baselines.mjs
	node tools/ablation.mjs
	npx prettier --write --log-level warn web/labs/gpt

# The token streams the model lab trains on in the page, from Debian's fortunes-zh, and the
# own-text lab's presets: the Tang poems and Song poems a poem a line, Genesis from Debian's King
# James Bible a verse a line (its references dropped). Built, never committed.
streams: native wasm
	build/native/attention_train --streams web/generated/tang-streams.bin
	build/native/attention_train --texts web/generated/texts
	bible -f gen1:1-50:26 | sed -E 's/^Ge[0-9]+:[0-9]+ //' > web/generated/texts/genesis.txt

# Only what the tests and the streams use; `make bench` adds its own timing program.
native:
	@[ -f build/native/CMakeCache.txt ] || cmake --preset native
	cmake --build --preset native -j2 --target attention_test attention_train

# The core for Python: attention_by_hand's module (pybind11), built beside the native tests.
python: native
	cmake --build --preset native -j2 --target attention_python

# The package as a wheel in dist/ (pyproject.toml, setup.py): that module without its debug
# information, and the walkthrough's script from the bundle. pip and setuptools are Debian's,
# offline: no build isolation, no index.
wheel: python bundle
	rm -rf dist
	ATTENTION_CMAKE_BUILD=build/native /usr/bin/python3 -m pip wheel -q --no-build-isolation \
	  --no-deps --no-index -w dist .

# A fresh venv with the wheel installed, as a user installs it; it sees Debian's NumPy, PyTorch,
# pytest and Jupyter (--system-site-packages). The python suite and the notebooks run in it: its
# own kernelspec makes Jupyter's python3 kernel this venv's (Debian's names /usr/bin/python3).
venv: wheel
	rm -rf build/venv
	/usr/bin/python3 -m venv --system-site-packages build/venv
	build/venv/bin/pip install -q --no-index dist/*.whl
	build/venv/bin/python -m ipykernel install --sys-prefix --name python3 >/dev/null

# The native tests again, and the libFuzzer target, under AddressSanitizer and
# UndefinedBehaviorSanitizer (clang).
sanitize:
	@[ -f build/sanitize/CMakeCache.txt ] || cmake --preset sanitize
	cmake --build --preset sanitize -j2
	@mkdir -p build/sanitize/corpus

format:
	clang-format -i $(CXX_SOURCES)
	npx prettier --write --log-level warn .

format-check:
	clang-format --dry-run --Werror $(CXX_SOURCES)
	npx prettier --check --log-level warn .

test-native: $(call needs,native)
	$(SUITE) native ctest --preset native --no-tests=error

test-sanitize: $(call needs,sanitize)
	$(SUITE) sanitize ctest --preset sanitize --no-tests=error

# New inputs go to build/sanitize/corpus; the committed seeds in tests/fuzz/corpus are read only.
test-fuzz: $(call needs,sanitize)
	$(SUITE) fuzz $(FUZZ) -max_total_time=$(TEST_FUZZ_SECONDS)

fuzz: sanitize
	$(FUZZ) -max_total_time=$(or $(FUZZ_SECONDS),0)

test-node: $(call needs,wasm streams)
	npx tsc -p tsconfig.json
	$(SUITE) node $(NODE_TEST) tests/node/

# The package's tests, run on the copy installed in build/venv from the wheel (not the tree's
# python/), under Debian's pytest; they also read the WASM core through Node.
test-python: $(call needs,venv)
	$(SUITE) python build/venv/bin/python -m pytest -p no:cacheprovider -q python/tests

test-browser: $(call needs,bundle venv)
	$(SUITE) browser node tools/browser-suite.mjs tests/browser/ 3

# The heavier tutorial hosts (Astro 5, Docusaurus 3 with React 19), not part of make test:
# tests/hosts/ (2 to 6 minutes here by the machine's load, most of it Docusaurus's webpack).
test-hosts: deps-hosts bundle venv
	$(SUITE) hosts $(BROWSER_TEST) tests/hosts/

# Mutation testing, not part of make test: the committed C++ mutants, one at a time, then
# Stryker over the JS wrapper and the page's pure modules.
mutate: native wasm
	node tools/mutate-core.mjs
	node tools/mutate-js.mjs

bench: deps-bench build
	cmake --build --preset native -j2 --target attention_gpt_bench
	node tools/bench.mjs

clean:
	rm -rf build web/generated dist python/*.egg-info
