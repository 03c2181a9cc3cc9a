# attention-by-hand: every command a user or CI needs. `make demo` and `make test` install
# what is missing first (tools/install-deps.sh).
.PHONY: demo test suites build deps wasm native bundle format format-check test-native test-node test-browser bench clean

NODE_TEST := node --test --test-reporter=tap --test-concurrency=1
# Every suite runs through tools/suite.mjs, which reads its counts and fails when it ran none.
SUITE := node tools/suite.mjs
SUITES := native node browser
CXX_SOURCES = $(shell git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp')

demo: build
	node tools/serve.mjs web 8000

# Every suite runs even when one fails (make -k), then one summary of what ran and passed.
test: build format-check
	@rm -rf build/results
	@status=0; $(MAKE) --no-print-directory -k suites || status=$$?; \
	  node tools/summary.mjs $(SUITES) && exit $$status

suites: $(addprefix test-,$(SUITES))

build: deps wasm native bundle

deps:
	@tools/install-deps.sh

wasm:
	@[ -f build/wasm/CMakeCache.txt ] || cmake --preset wasm
	cmake --build --preset wasm

bundle: wasm
	node tools/bundle.mjs

native:
	@[ -f build/native/CMakeCache.txt ] || cmake --preset native
	cmake --build --preset native -j2

format:
	clang-format -i $(CXX_SOURCES)
	npx prettier --write --log-level warn .

format-check:
	clang-format --dry-run --Werror $(CXX_SOURCES)
	npx prettier --check --log-level warn .

test-native: native
	$(SUITE) native ctest --preset native --no-tests=error

test-node: wasm
	npx tsc -p tsconfig.json
	$(SUITE) node $(NODE_TEST) tests/node/

test-browser: bundle
	$(SUITE) browser $(NODE_TEST) tests/browser/

bench: build
	node tools/bench.mjs

clean:
	rm -rf build web/generated
