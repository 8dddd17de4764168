# ddbsql developer targets. `make test` is the test command CI runs (.ci/run).

GO ?= go
DYNALITE_DIR := testdata/dynalite
DYNALITE_PORT ?= 8000

.PHONY: test build dynalite bench

## test: install/start dynalite, gofmt + vet, go test -race ./... (ARGS="-run X" passes flags)
test:
	scripts/test.sh $(ARGS)

## build: build the ddbsql binary into bin/
build:
	$(GO) build -o bin/ddbsql ./cmd/ddbsql

## dynalite: run an in-memory dynalite on 127.0.0.1:$(DYNALITE_PORT) in the foreground (Ctrl-C stops it)
dynalite: $(DYNALITE_DIR)/node_modules/.package-lock.json
	@echo "dynalite on http://127.0.0.1:$(DYNALITE_PORT) (in memory; Ctrl-C stops it). Tests against it:"
	@echo "  DDBSQL_TEST_DYNALITE=http://127.0.0.1:$(DYNALITE_PORT) go test ./..."
	node $(DYNALITE_DIR)/server.js --port $(DYNALITE_PORT) --ignore-stdin

$(DYNALITE_DIR)/node_modules/.package-lock.json: $(DYNALITE_DIR)/package.json $(DYNALITE_DIR)/package-lock.json
	npm ci --prefix $(DYNALITE_DIR) --ignore-scripts --no-audit --no-fund --loglevel=error

## bench: run every benchmark (no tests)
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
