# ddbsql developer targets. `make test` is the test command CI runs (.ci/run).

GO ?= go
DYNALITE_DIR := testdata/dynalite
DYNALITE_PORT ?= 8000

.PHONY: test build dynalite bench bench-peers fuzz

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

## bench: run every benchmark (no tests), then the fast read path's target
## ratios (exec/dynamo/wire TestTargets, best of DDBSQL_BENCH_ROUNDS rounds
## against the in-process replay server), the 1 M-item SELECT * memory check
## and the peak RSS of spilling ORDER BY and GROUP BY, each in its own process
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	DDBSQL_BENCH=1 $(GO) test -count=1 -run '^TestTargets$$' -v -timeout 60m ./exec/dynamo/wire/
	$(GO) test -count=1 -run '^$$' -bench '^BenchmarkPeakRSS1M$$' -benchtime 1x ./exec/dynamo/wire/
	DDBSQL_PEAKRSS=1 $(GO) test -count=1 -run '^$$' -bench '^BenchmarkPeakRSSSpill$$' -benchtime 1x -timeout 30m ./cmd/ddbsql/

## bench-peers: ddbsql beside DuckDB (1 thread, all threads) on the same
## generated DynamoDB exports of 200 k and 1 M orders: wall time, peak RSS,
## answers compared (ARGS="-items 200000 -runs 3" chooses sizes and runs)
bench-peers:
	$(GO) run ./internal/benchpeers $(ARGS)

## fuzz: fuzz the whole statement path (parse, plan, execute on the demo
## tables) for FUZZTIME per target; crashers land in exec/session/testdata/fuzz
FUZZTIME ?= 5m
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzStatements$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./exec/session/
	$(GO) test -run '^$$' -fuzz '^FuzzGeneratedStatements$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./exec/session/
