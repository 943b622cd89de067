# icnsim: C11, make, libc/libm only.
#   make          build ./icnsim
#   make run      run the embedded default experiment
#   make test     build and run every test (also: make test SAN=1 for ASan+UBSan)
#   make bench    benchmarks (not tests): wall time, packet-hops/s, events/s, memory
#                 (RECORD=1: append the rows to bench/results.csv, with NOTE=...;
#                 CASE=pattern: only the matching cases; REPEAT=N: the cases N times in turn;
#                 BASE=commit: each case also with that commit's build, just before;
#                 BASE_FILES=1: the base on its own commit's experiment files;
#                 HEAD_SET='k=v ...': settings for the build at HEAD only)
#   make bench-cachegrind  instructions and cache misses per packet-hop under valgrind's
#                 cachegrind (RECORD=1: append to bench/cachegrind.csv; NOTE, CASE as above)
#   make golden   compare short runs' result digests with tests/golden/digests.txt
#                 (make golden-update rewrites them: commit with a reason)
#   make fuzz     AFL++ on the configuration parser and set-up, FUZZ_TARGETS=... on the
#                 readers of fabric, LFT, trace and CCT files (tests/fuzz/run.sh)
#   make MPI=1    build-mpi/icnsim: sweeps over MPI ranks (needs mpicc)
CC      ?= cc
OPT     ?= -O2
CFLAGS  ?=
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
# make NATIVE=1: tuned to this machine's CPU, with link-time optimization
# (about 7 % faster on the 11664-node runs; results are byte-identical).
ifeq ($(NATIVE),1)
OPT     := -O3 -march=native -flto
LDFLAGS += -O3 -march=native -flto
endif

ICNFLAGS := -std=c11 -D_GNU_SOURCE -pthread -g $(OPT) $(WARN) -MMD -MP
LDLIBS  := -lm -pthread

ifeq ($(FUZZ),1)
# make FUZZ=1: AFL++-instrumented ASan + UBSan build for tests/fuzz/run.sh.
CC      := afl-clang-fast
BUILD   := build-fuzz
ICNFLAGS += -Wno-unknown-warning-option -Wno-error   # the gcc build is the warning gate
ICNFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
else ifeq ($(TSAN),1)
# make TSAN=1 test-parts: ThreadSanitizer on the runs split over threads
BUILD   := build-tsan
ICNFLAGS += -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
else ifeq ($(SAN),1)
BUILD   := build-san
ICNFLAGS += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
else ifeq ($(NATIVE),1)
BUILD   := build-native
else
BUILD   := build
endif

# make MPI=1: sweeps over the ranks of an MPI job (mpirun -np N build-mpi/icnsim
# sweep ..., docs/CLUSTER.md), built with mpicc (Debian: openmpi-bin
# libopenmpi-dev). Only this build compiles src/mpi/; any other needs no MPI.
ifeq ($(MPI),1)
CC      := mpicc
BUILD   := $(BUILD)-mpi
ICNFLAGS += -DICN_MPI
endif

SRC      := $(shell find src -name '*.c' -not -path 'src/mpi/*' | sort) $(if $(filter 1,$(MPI)),$(sort $(wildcard src/mpi/*.c)))
LIBSRC   := $(filter-out src/cli/main.c,$(SRC))
TESTSRC  := $(sort $(wildcard tests/*.c))
LIBOBJ   := $(LIBSRC:%.c=$(BUILD)/%.o)
MAINOBJ  := $(BUILD)/src/cli/main.o
TESTOBJ  := $(TESTSRC:%.c=$(BUILD)/%.o)
BIN      := $(BUILD)/icnsim

.PHONY: all run test test-parts bench bench-cachegrind docs docs-results clean golden golden-update fuzz
all: icnsim

icnsim: $(BIN)
	@if [ "$(BUILD)" = build ]; then cp $(BIN) icnsim; fi

$(BIN): $(LIBOBJ) $(MAINOBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/test_runner: $(LIBOBJ) $(TESTOBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ICNFLAGS) $(CFLAGS) -c -o $@ $<

run: icnsim
	@rm -rf results/make-run
	./icnsim sweep -s load=0.3,0.6,0.9 -s traffic.scenario=none,hs10-1 -j 2 -o results/make-run

test: $(BIN) $(BUILD)/test_runner
	ICNSIM=$(BIN) $(BUILD)/test_runner

# The partitioned runs' tests alone (with TSAN=1: under ThreadSanitizer).
test-parts: $(BIN) $(BUILD)/test_runner
	ICNSIM=$(BIN) $(BUILD)/test_runner parts

# With SAN=1 or NATIVE=1 the same digests must come out of that build.
golden: $(BIN)
	ICNSIM=$(BIN) bash tests/golden/run.sh check

golden-update: $(BIN)
	ICNSIM=$(BIN) bash tests/golden/run.sh update

# AFL++ on the configuration parser and set-up, or on the file readers
# (seconds per target: FUZZ_SECONDS; FUZZ_TARGETS: config ibnet lft dimemas cct).
fuzz:
	bash tests/fuzz/run.sh $(or $(FUZZ_SECONDS),60) $(FUZZ_TARGETS)

bench: icnsim
	if command -v mpicc >/dev/null; then $(MAKE) MPI=1; fi
	bash bench/run.sh $(if $(RECORD),--record) $(if $(NOTE),--note "$(NOTE)") $(if $(REPEAT),--repeat $(REPEAT)) $(if $(BASE),--base $(BASE)) $(if $(BASE_FILES),--base-files) $(foreach h,$(HEAD_SET),--head-set '$(h)') $(if $(CASE),'$(CASE)')

# Instructions and cache misses per packet-hop under cachegrind (needs valgrind;
# RECORD=1 appends the rows to bench/cachegrind.csv).
bench-cachegrind: $(BIN)
	BIN=$(BIN) bash bench/cachegrind.sh $(if $(RECORD),--record) $(if $(NOTE),--note "$(NOTE)") $(if $(CASE),'$(CASE)')

docs: icnsim
	./icnsim keys --markdown > docs/CONFIG.md

# every generated page and block of docs/ from the kept raw results (no simulation)
docs-results: icnsim
	python3 experiments/docs.py

clean:
	rm -rf build build-san build-tsan build-native build-fuzz build-mpi build-san-mpi build-native-mpi icnsim

-include $(LIBOBJ:.o=.d) $(MAINOBJ:.o=.d) $(TESTOBJ:.o=.d)

# Event-queue microbenchmark and cross-check: the original heap against
# src/core/evq.c (same pop sequence, then speed).
.PHONY: bench-evq
EVQ_BENCH_SRC := bench/evq_bench.c src/core/evq.c src/core/util.c
bench-evq:
	@mkdir -p build
	$(CC) -std=c11 -D_GNU_SOURCE -O2 $(WARN) -o build/evq_bench $(EVQ_BENCH_SRC)
	build/evq_bench
