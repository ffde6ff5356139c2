# gsan: build, test, demo. Out-of-tree build in build/.
# `make` builds; `make check` runs the tests; `make demo` shows gsan at work.
CC       ?= cc
CFLAGS   ?= -O2 -g
WARN     := -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE
CPPFLAGS := -Iinclude
BUILD    := build
PREFIX   ?= /usr/local
NPROC    := $(shell nproc 2>/dev/null || echo 2)
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

PTX_SRC  := $(wildcard src/ptx/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
SRC      := $(PTX_SRC) $(CLI_SRC) src/runtime/rt_flags.c src/runtime/rt_trust.c src/runtime/rt_jit_cache.c src/runtime/rt_suppress.c \
            src/runtime/rt_report_kinds.c
OBJ      := $(SRC:%.c=$(BUILD)/obj/%.o)
SAN_OBJ  := $(SRC:%.c=$(BUILD)/asan/%.o)
HDR      := $(wildcard src/*/*.h include/gsan/*.h)

.PHONY: all check demo install clean deps deps-build corpus bench-ptx bench-ptxas
all: $(BUILD)/bin/gsan $(BUILD)/bin/gsan-nvcc $(BUILD)/lib/libgsan.so

# the runtime, preloaded by gsan run. DEPS_DIR (include/, lib/) stands in for
# libelf-dev, libdw-dev, libzstd-dev and libunwind-dev on machines that cannot
# install packages. libunwind is compiled against, not linked: rt_unwind.c
# loads libunwind.so.8 with dlopen(RTLD_LOCAL) (found through the rpath too),
# since a preloaded library's DT_NEEDED would put its _Unwind_* ahead of
# libgcc_s's in every program gsan runs.
CUDA_HOME ?= /usr/local/cuda
DEPS_DIR  ?=
ifneq ($(DEPS_DIR),)
DEP_INC   := -I$(DEPS_DIR)/include
DEP_LIB   := -L$(abspath $(DEPS_DIR))/lib -Wl,-rpath,$(abspath $(DEPS_DIR))/lib
endif
LIB_SRC := $(addprefix src/runtime/,rt_interpose.c rt_dlsym_real.c rt_gsan.c rt_driver.c rt_device.c rt_tables.c rt_drain.c rt_life.c rt_events.c rt_listeners.c rt_hooks.c rt_hooks_alloc.c rt_hooks_copy.c rt_hooks_module.c rt_hooks_query.c rt_hooks_sync.c rt_canary.c rt_retire.c rt_seen.c rt_suppress.c rt_arena.c rt_flags.c rt_report.c rt_sites.c rt_ring.c \
             rt_fatbin.c rt_vmm_cuda.c rt_stack.c rt_unwind.c rt_depot.c rt_foreign.c rt_exit.c rt_hooks_ctx.c rt_heap.c rt_launch.c rt_proof.c rt_trust.c rt_nodriver.c)
# the one list of hooked driver entry points, which the hook files include
HDR += src/runtime/rt_driver.inc
# PyTorch's allocator entry points; the soname lets a program under gsan run
# dlopen("libgsan.so") and get the preloaded library (docs/frameworks.md),
# whatever CFLAGS the command line gives
LIB_SRC += src/runtime/rt_torch.c
$(BUILD)/lib/libgsan.so: override CFLAGS += -Wl,-soname,libgsan.so
$(BUILD)/lib/libgsan.so: $(LIB_SRC) $(HDR) | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(DEP_INC) -I$(CUDA_HOME)/include $(CFLAGS) -fPIC -shared -Wl,-z,defs $(LIB_SRC) -o $@ \
	  $(DEP_LIB) -ldl -lpthread -ldw -lelf -lzstd -lstdc++ -Wl,--version-script=src/runtime/libgsan.map
# the one list of report kinds (rt_report_kinds.h), which gsan run's check
# of a suppressions file and `gsan help reports` use too
LIB_SRC += src/runtime/rt_report_kinds.c
$(BUILD)/lib/libgsan.so: src/runtime/rt_report_kinds.c
# The instrumenter is linked in (PTX loaded at run time: rt_jit.c); its ptx_*
# names stay internal (libgsan.map), out of the program's symbol space.
JIT_SRC := src/runtime/rt_jit.c src/runtime/rt_jit_cache.c $(PTX_SRC)
LIB_SRC += $(JIT_SRC)
$(BUILD)/lib/libgsan.so: $(JIT_SRC) src/runtime/libgsan.map

# Binary mode (docs/binary.md): built when NVIDIA's Sanitizer API headers
# are found (the toolkit's compute-sanitizer/include, else DEPS_DIR's
# sanitizer/include); libgsan loads the library itself with dlopen, only in
# that mode, and never links it. The device patch is a fatbin beside
# libgsan.so, compiled as NVIDIA's MemoryTracker sample compiles its patches.
SANITIZER_INC := $(patsubst %/sanitizer.h,%,$(firstword $(wildcard $(CUDA_HOME)/compute-sanitizer/include/sanitizer.h \
                   $(if $(DEPS_DIR),$(DEPS_DIR)/sanitizer/include/sanitizer.h))))
NVCC         ?= $(firstword $(wildcard $(CUDA_HOME)/bin/nvcc) $(shell command -v nvcc 2>/dev/null))
BINARY_SMS   ?= 75 80 86 89 90
LIB_SRC += src/runtime/rt_binary.c src/runtime/rt_binary_names.c src/runtime/rt_binary_probe.c
$(BUILD)/lib/libgsan.so: src/runtime/rt_binary.c src/runtime/rt_binary_names.c src/runtime/rt_binary_probe.c
ifneq ($(SANITIZER_INC),)
SANITIZER_FLAGS := -DGSAN_HAVE_SANITIZER -I$(SANITIZER_INC)
$(BUILD)/lib/libgsan.so $(BUILD)/asan-lib/src/runtime/rt_binary.o $(BUILD)/obj/src/cli/cli_run.o $(BUILD)/asan/src/cli/cli_run.o: \
  CPPFLAGS += $(SANITIZER_FLAGS)
ifneq ($(NVCC),)
BINARY_PATCH := $(BUILD)/lib/gsan_binary_patch.fatbin
all: $(BINARY_PATCH)
$(BINARY_PATCH): src/runtime/rt_binary_patch.cu include/gsan/abi.h
	@mkdir -p $(dir $@)
	$(NVCC) --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch -Iinclude -I$(SANITIZER_INC) \
	  $(foreach sm,$(BINARY_SMS),-gencode arch=compute_$(sm),code=sm_$(sm)) \
	  -gencode arch=compute_$(lastword $(BINARY_SMS)),code=compute_$(lastword $(BINARY_SMS)) -o $@ -c $<
endif
# binary mode's host side against a fake of the Sanitizer API library
$(BUILD)/lib/fake/libsanitizer-public.so: tests/runtime/fake_sanitizer.c include/gsan/abi.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(SANITIZER_INC) -I$(CUDA_HOME)/include -O1 -g -fPIC -shared $< -o $@
$(BUILD)/bin/test_binary_run: tests/runtime/test_binary_run.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl
check: $(BUILD)/lib/fake/libsanitizer-public.so $(BUILD)/bin/test_binary_run
endif

# gsan answers to this name as `gsan nvcc` (for CMAKE_CUDA_COMPILER)
$(BUILD)/bin/gsan-nvcc: $(BUILD)/bin/gsan
	ln -sf gsan $@

# libgsan's dlsym and dlvsym besides rt_interpose.c and rt_dlsym_real.c: the
# entry stubs, RTLD_NEXT for the names gsan hooks, symbols read in memory
DLSYM_SRC := $(addprefix src/runtime/,rt_dlsym_entry.c rt_dlsym_next.c rt_elf_dyn.c)
LIB_SRC += $(DLSYM_SRC)
$(BUILD)/lib/libgsan.so: $(DLSYM_SRC)

$(BUILD)/obj/%.o: %.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/asan/%.o: %.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) -c $< -o $@

$(BUILD)/bin/gsan: $(OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@

# the same tool built with AddressSanitizer and UBSan: the tests run this one
$(BUILD)/bin/gsan-asan: $(SAN_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) $^ -o $@

# Test dependencies: FileCheck (LLVM) and lit. Installed when run as root,
# otherwise the command is printed.
deps:
	@sh tests/deps.sh test
deps-build:
	@sh tests/deps.sh build

# The PTX corpus: every kernel in tests/ptx/kernels compiled by nvcc.
corpus: deps
	@$(MAKE) --no-print-directory -j$(NPROC) -f tests/ptx/corpus.mk BUILD=$(BUILD)

# the runtime's CPU tests, against a fake of the driver's VMM calls
RT_TEST_SRC := src/runtime/rt_arena.c tests/runtime/fake_vmm.c
$(BUILD)/bin/test_arena: $(RT_TEST_SRC) tests/runtime/test_arena.c $(HDR) tests/runtime/fake_vmm.h tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) $(RT_TEST_SRC) tests/runtime/test_arena.c -o $@ -lpthread

$(BUILD)/bin/test_flags: src/runtime/rt_flags.c tests/runtime/test_flags.c $(HDR) tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) src/runtime/rt_flags.c tests/runtime/test_flags.c -o $@

# launch proofs: the facts evaluator against hand-built and random blobs
$(BUILD)/bin/test_proof: src/runtime/rt_proof.c tests/runtime/test_proof.c $(HDR) tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) src/runtime/rt_proof.c tests/runtime/test_proof.c -o $@

REPORT_SRC := src/runtime/rt_report.c src/runtime/rt_report_kinds.c src/runtime/rt_suppress.c src/runtime/rt_sites.c src/runtime/rt_seen.c
$(BUILD)/bin/test_report: $(REPORT_SRC) tests/runtime/test_report.c $(HDR) tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) $(REPORT_SRC) tests/runtime/test_report.c -o $@ -lstdc++

# binary mode's records, decoded without a site table and reported
$(BUILD)/bin/test_binary: $(REPORT_SRC) src/runtime/rt_binary_names.c src/runtime/rt_binary_probe.c src/runtime/rt_arena.c tests/runtime/fake_vmm.c tests/runtime/test_binary.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) $(REPORT_SRC) src/runtime/rt_binary_names.c src/runtime/rt_binary_probe.c src/runtime/rt_arena.c tests/runtime/fake_vmm.c \
	  tests/runtime/test_binary.c -o $@ -lstdc++ -lpthread

$(BUILD)/bin/test_foreign: src/runtime/rt_foreign.c tests/runtime/test_foreign.c $(HDR) tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) src/runtime/rt_foreign.c tests/runtime/test_foreign.c -o $@ -lpthread

# the ring protocol is about concurrency: ThreadSanitizer watches it
$(BUILD)/bin/test_ring: src/runtime/rt_ring.c tests/runtime/test_ring.c $(HDR) tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g -fsanitize=thread src/runtime/rt_ring.c tests/runtime/test_ring.c -o $@ -lpthread

FATBIN_SRC := src/runtime/rt_fatbin.c src/runtime/rt_sites.c
$(BUILD)/bin/test_fatbin: $(FATBIN_SRC) tests/runtime/test_fatbin.c $(HDR) | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(DEP_INC) -O1 -g $(SAN) $(FATBIN_SRC) tests/runtime/test_fatbin.c -o $@ $(DEP_LIB) -lelf -lzstd

# libgsan's interposition, on the CPU: a fake libcuda.so.1 and a program that
# talks to it as cudart does, run under gsan run
$(BUILD)/lib/fake/libcuda.so.1: tests/runtime/fake_libcuda.c tests/runtime/fake_vmm.c tests/runtime/fake_vmm.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g -fPIC -shared -Wl,-Bsymbolic tests/runtime/fake_libcuda.c tests/runtime/fake_vmm.c -o $@ -lpthread
$(BUILD)/bin/test_interpose: tests/runtime/test_interpose.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl

$(BUILD)/bin/test_canary: tests/runtime/test_canary.c tests/runtime/driver.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl

# launch bounds: kernels' launch-bounds copies launched in their place
$(BUILD)/bin/test_launch: tests/runtime/test_launch.c tests/runtime/driver.h include/gsan/abi.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl

# PTX loaded at run time, through the same fake driver
$(BUILD)/bin/test_jit: tests/runtime/test_jit.c tests/runtime/driver.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl

$(BUILD)/bin/test_lcuda: tests/runtime/test_lcuda.c $(BUILD)/lib/fake/libcuda.so.1
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -L$(BUILD)/lib/fake -l:libcuda.so.1

# the device heap, the device's part played by the program (heap.test)
$(BUILD)/bin/test_heap: tests/runtime/test_heap.c include/gsan/abi.h tests/runtime/driver.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl

# dlsym(RTLD_NEXT) through libgsan: an interposer that gsan run preloads
# after it, and a program that runs the interposer's probe; the same library
# with a SysV hash table for the symbol lookup's test against glibc's
$(BUILD)/lib/next/libgsan_next_sysv.so: NEXT_HASH := -Wl,--hash-style=sysv
$(BUILD)/lib/next/libgsan_next.so $(BUILD)/lib/next/libgsan_next_sysv.so: tests/runtime/next_lib.c tests/runtime/next_lib.map
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g -fPIC -shared -Wl,--version-script=tests/runtime/next_lib.map $(NEXT_HASH) \
	  $< -o $@ -ldl
$(BUILD)/bin/test_elf_dyn: src/runtime/rt_elf_dyn.c tests/runtime/test_elf_dyn.c $(HDR) tests/runtime/check.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -O1 -g $(SAN) src/runtime/rt_elf_dyn.c tests/runtime/test_elf_dyn.c -o $@ -ldl -Wl,--no-as-needed -lm -lstdc++
$(BUILD)/bin/test_next: tests/runtime/test_next.c $(BUILD)/lib/fake/libcuda.so.1
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl -L$(BUILD)/lib/fake -l:libcuda.so.1
check: $(BUILD)/lib/next/libgsan_next.so $(BUILD)/lib/next/libgsan_next_sysv.so $(BUILD)/bin/test_next $(BUILD)/bin/test_elf_dyn

# host stack capture against glibc's backtrace(), through a library built
# twice with frames of two sizes; optimised as libgsan is, and without
# AddressSanitizer, whose backtrace() interceptor adds a frame of its own
$(BUILD)/lib/frames/libgsan_frames1.so: FRAME_BYTES := 16
$(BUILD)/lib/frames/libgsan_frames2.so: FRAME_BYTES := 100
$(BUILD)/lib/frames/libgsan_frames%.so: tests/runtime/unwind_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O2 -g -fPIC -shared -DFRAME_BYTES=$(FRAME_BYTES) $< -o $@
# (libunwind's functions are found with glibc's own dlsym: rt_dlsym_real.c)
UNWIND_SRC := src/runtime/rt_unwind.c src/runtime/rt_dlsym_real.c src/runtime/rt_elf_dyn.c
$(BUILD)/bin/test_unwind: $(UNWIND_SRC) tests/runtime/test_unwind.c $(HDR) tests/runtime/check.h | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) $(DEP_INC) -O2 -g $(UNWIND_SRC) tests/runtime/test_unwind.c -o $@ $(DEP_LIB) -ldl -lpthread

RT_TESTS := $(BUILD)/lib/fake/libcuda.so.1 $(BUILD)/bin/test_interpose $(BUILD)/bin/test_canary $(BUILD)/bin/test_launch $(BUILD)/bin/test_jit $(BUILD)/bin/test_lcuda $(BUILD)/bin/test_heap $(BUILD)/bin/test_arena $(BUILD)/bin/test_flags $(BUILD)/bin/test_proof $(BUILD)/bin/test_report $(BUILD)/bin/test_binary $(BUILD)/bin/test_ring \
            $(BUILD)/bin/test_fatbin $(BUILD)/bin/test_foreign $(BUILD)/bin/test_unwind $(BUILD)/lib/frames/libgsan_frames1.so $(BUILD)/lib/frames/libgsan_frames2.so
# gsan's PyTorch allocator pair, against the fake driver
$(BUILD)/bin/test_torch: tests/runtime/test_torch.c include/gsan/gsan_torch.h
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl
RT_TESTS += $(BUILD)/bin/test_torch
# libraries' memory pools at exit (built-in leak rules), against the fake driver
$(BUILD)/bin/test_pools: tests/runtime/test_pools.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CPPFLAGS) -I$(CUDA_HOME)/include -O1 -g $< -o $@ -ldl
RT_TESTS += $(BUILD)/bin/test_pools
include tests/fuzz/fuzz.mk
# every step runs whatever an earlier one gave; the last prints the closing
# line "N passed, N failed, N skipped" and fails if anything did
check: all $(BUILD)/bin/gsan-asan $(RT_TESTS) corpus
	@rm -rf $(BUILD)/check
	@sh tests/run.sh $(BUILD) || true
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz || true
	@sh tests/summary.sh $(BUILD)

demo: all
	@sh docs/demo.sh $(BUILD)

bench-ptx: all
	@sh bench/ptx_speed.sh $(BUILD)

# what gsan adds to compiling PTX at load time (ptxas here, no GPU)
bench-ptxas: all
	@sh bench/ptxas_cost.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/gsan
	install -m 755 $(BUILD)/lib/libgsan.so $(DESTDIR)$(PREFIX)/lib/libgsan.so
	install -m 755 $(BUILD)/bin/gsan $(DESTDIR)$(PREFIX)/bin/gsan
	ln -sf gsan $(DESTDIR)$(PREFIX)/bin/gsan-nvcc
	install -m 644 include/gsan/*.h $(DESTDIR)$(PREFIX)/include/gsan/
	if [ -x $(BUILD)/bin/gsan-scan ]; then \
	  install -d $(DESTDIR)$(PREFIX)/share/gsan/scan/cuda-include && \
	  install -m 755 $(BUILD)/bin/gsan-scan $(DESTDIR)$(PREFIX)/bin/gsan-scan && \
	  install -m 644 src/scan/scan_cuda.h $(DESTDIR)$(PREFIX)/share/gsan/scan/ && \
	  install -m 644 src/scan/cuda-include/*.h $(DESTDIR)$(PREFIX)/share/gsan/scan/cuda-include/; fi

clean:
	rm -rf $(BUILD)

include src/scan/scan.mk
