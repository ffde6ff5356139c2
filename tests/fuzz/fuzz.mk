# Fuzzing and sanitizer builds (docs/hardening.md), included by the Makefile.
# - libFuzzer harnesses (tests/fuzz/fuzz_*.c), built with clang under ASan and
#   UBSan; `make fuzz` runs each for FUZZ_SECONDS (tests/fuzz/fuzz.sh);
# - libgsan-asan.so: the preloaded runtime under ASan and UBSan, which
#   tests/run.sh runs the interposition tests against.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 45
# gsan scan's harness runs on its own after the other four (two at a time on
# two cores): its own, shorter budget keeps make check's added time under 45 s
FUZZ_SECONDS_fuzz_scan ?= 30
# launch facts: a small parser and evaluator, covered in seconds
FUZZ_SECONDS_fuzz_facts ?= 20
FUZZ_FLAGS   := -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_NAMES   := fuzz_ptx_parse fuzz_ptx_instrument fuzz_options fuzz_fatbin fuzz_facts fuzz_scan
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/bin/%)
FUZZ_HDR     := $(HDR) $(wildcard tests/fuzz/*.h)
fuzz_objs     = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))

.PHONY: fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

# the library code with coverage for libFuzzer, the harness's main from libFuzzer at link
$(FUZZ_DIR)/obj/%.o: %.c $(FUZZ_HDR) | deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(CPPFLAGS) $(DEP_INC) $(FUZZ_EXTRA) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -c $< -o $@
$(FUZZ_DIR)/bin/%:
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined $^ -o $@ $(FUZZ_LIBS_$*)

$(FUZZ_DIR)/bin/fuzz_ptx_parse: $(call fuzz_objs,tests/fuzz/fuzz_ptx_parse.c $(PTX_SRC))
$(FUZZ_DIR)/bin/fuzz_ptx_instrument: $(call fuzz_objs,tests/fuzz/fuzz_ptx_instrument.c $(PTX_SRC))
$(FUZZ_DIR)/bin/fuzz_options: $(call fuzz_objs,tests/fuzz/fuzz_options.c src/runtime/rt_flags.c src/runtime/rt_suppress.c \
                                src/runtime/rt_report_kinds.c)
$(FUZZ_DIR)/bin/fuzz_fatbin: $(call fuzz_objs,tests/fuzz/fuzz_fatbin.c src/runtime/rt_fatbin.c src/runtime/rt_sites.c)
FUZZ_LIBS_fuzz_fatbin := $(DEP_LIB) -lelf -lzstd
$(FUZZ_DIR)/bin/fuzz_facts: $(call fuzz_objs,tests/fuzz/fuzz_facts.c src/runtime/rt_proof.c)
# gsan scan without its main (the harness sets the options), against
# libclang and Z3 (src/scan/scan.mk, read later: these expand when used)
FUZZ_SCAN_SRC := tests/fuzz/fuzz_scan.c $(filter-out src/scan/scan_main.c,$(wildcard src/scan/*.c))
$(FUZZ_DIR)/bin/fuzz_scan: $(call fuzz_objs,$(FUZZ_SCAN_SRC))
$(call fuzz_objs,$(FUZZ_SCAN_SRC)): FUZZ_EXTRA = $(SCAN_CFLAGS) -DFUZZ_SCAN_DATA='"$(abspath src/scan)"'
FUZZ_LIBS_fuzz_scan = $(SCAN_LIBS)

# seeds made from the test corpus (tests/fuzz/seeds.sh); the committed ones are in tests/fuzz/seeds
$(FUZZ_DIR)/seeds/stamp: tests/fuzz/seeds.sh $(BUILD)/bin/gsan $(wildcard tests/ptx/*/*.ptx tests/ptx/kernels/*.cu tests/scan/*.cu) | corpus
	@sh tests/fuzz/seeds.sh $(BUILD)
	@touch $@

FUZZ_ARGS_fuzz_ptx_parse     := -dict=tests/fuzz/ptx.dict -max_len=32768 $(FUZZ_DIR)/seeds/ptx
FUZZ_ARGS_fuzz_ptx_instrument := -dict=tests/fuzz/ptx.dict -max_len=16384 $(FUZZ_DIR)/seeds/ptx
FUZZ_ARGS_fuzz_options       := -dict=tests/fuzz/options.dict -max_len=4096 tests/fuzz/seeds/fuzz_options
FUZZ_ARGS_fuzz_fatbin        := -dict=tests/fuzz/fatbin.dict -max_len=65536 $(FUZZ_DIR)/seeds/fatbin
FUZZ_ARGS_fuzz_facts         := -max_len=8192 tests/fuzz/seeds/fuzz_facts
FUZZ_ARGS_fuzz_scan          := -dict=tests/fuzz/scan.dict -max_len=16384 $(FUZZ_DIR)/seeds/scan

# every harness for FUZZ_SECONDS, or FUZZ_SECONDS_NAME where one is set (in
# parallel under make -j); what each found is kept in build/fuzz/NAME/ for the
# next run, and the regression inputs in tests/fuzz/regress/NAME/ are seeds too
fuzz: $(FUZZ_NAMES:%=fuzz-run-%)
fuzz-run-%: $(FUZZ_DIR)/bin/% $(FUZZ_DIR)/seeds/stamp
	@sh tests/fuzz/fuzz.sh $(BUILD) $* $(or $(FUZZ_SECONDS_$*),$(FUZZ_SECONDS)) $(FUZZ_ARGS_$*) $(wildcard tests/fuzz/regress/$*)

# libgsan.so under ASan and UBSan (gcc's, as gsan-asan), preloaded before
# libasan.so (tests/lit.cfg.py). The dlsym override (RT_ASAN_PRE) runs inside
# ASan's own start-up, which finds libc's functions through dlsym before its
# shadow memory exists: those files are built without ASan (UBSan stays).
RT_ASAN_PRE := $(addprefix src/runtime/,rt_interpose.c rt_dlsym_entry.c rt_dlsym_real.c rt_dlsym_next.c rt_elf_dyn.c)
$(BUILD)/asan-lib/%.o: %.c $(HDR) | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(DEP_INC) -I$(CUDA_HOME)/include -O1 -g $(SAN) $(if $(filter $<,$(RT_ASAN_PRE)),-fno-sanitize=address) \
	  -fPIC -c $< -o $@
$(BUILD)/lib/libgsan-asan.so: $(LIB_SRC:%.c=$(BUILD)/asan-lib/%.o)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -shared -Wl,-z,defs $^ -o $@ $(DEP_LIB) -ldl -lpthread -ldw -lelf -lzstd -lstdc++

# fuzz_scan links libclang and Z3: like gsan-scan (src/scan/scan.mk) it is
# built by a make started after make check has installed them
check: $(filter-out $(FUZZ_DIR)/bin/fuzz_scan,$(FUZZ_BINS)) $(BUILD)/lib/libgsan-asan.so fuzz-scan-build
.PHONY: fuzz-scan-build
fuzz-scan-build: deps
	@$(MAKE) --no-print-directory $(FUZZ_DIR)/bin/fuzz_scan
