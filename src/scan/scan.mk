# gsan-scan, the static analyzer: its own executable, linked against libclang
# and Z3 so that gsan itself never is (the GPU machine has neither).
# Included from the Makefile. `make all` builds it when the headers are there
# and otherwise says why not; `make check` installs them (tests/deps.sh) and
# always builds it, with AddressSanitizer and UBSan for the tests.

# the newest libclang with the C API this code needs (operator kinds: LLVM 17+)
SCAN_LLVM := $(lastword $(foreach d,$(shell ls -d /usr/lib/llvm-*/include/clang-c 2>/dev/null | sort -t- -k2 -n),\
               $(if $(filter-out 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16,$(word 2,$(subst -, ,$(subst /include/clang-c,,$(d))))),\
                    $(subst /include/clang-c,,$(d)))))
SCAN_Z3   := $(wildcard /usr/include/z3.h)
SCAN_SRC  := $(wildcard src/scan/*.c)
SCAN_HDR  := $(wildcard src/scan/*.h)
SCAN_DATA := $(BUILD)/share/gsan/scan/scan_cuda.h \
             $(patsubst src/scan/%,$(BUILD)/share/gsan/scan/%,$(wildcard src/scan/cuda-include/*.h))
SCAN_CFLAGS := -I$(SCAN_LLVM)/include
SCAN_LIBS   := -L$(SCAN_LLVM)/lib -Wl,-rpath,$(SCAN_LLVM)/lib -lclang -lz3

.PHONY: scan scan-check bench-scan
ifneq ($(and $(SCAN_LLVM),$(SCAN_Z3)),)
all: $(BUILD)/bin/gsan-scan $(SCAN_DATA)
else
all: scan
scan:
	@echo "gsan: gsan-scan not built: $(if $(SCAN_LLVM),,no libclang-dev (17 or newer) in /usr/lib/llvm-*)$(if $(SCAN_Z3),, no libz3-dev) (sh tests/deps.sh test installs them)"
endif

$(BUILD)/bin/gsan-scan: $(SCAN_SRC) $(SCAN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SCAN_CFLAGS) $(CFLAGS) $(SCAN_SRC) -o $@ $(SCAN_LIBS)

$(BUILD)/bin/gsan-scan-asan: $(SCAN_SRC) $(SCAN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SCAN_CFLAGS) -O1 -g $(SAN) $(SCAN_SRC) -o $@ $(SCAN_LIBS)

$(BUILD)/share/gsan/scan/%.h: src/scan/%.h
	@mkdir -p $(dir $@)
	cp $< $@

# make check: the dependencies first, then a make that sees them
check: scan-check
scan-check: deps
	@$(MAKE) --no-print-directory $(BUILD)/bin/gsan-scan $(BUILD)/bin/gsan-scan-asan $(SCAN_DATA)

bench-scan: scan-check
	@sh bench/scan_speed.sh $(BUILD)
