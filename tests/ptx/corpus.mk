# The PTX corpus, as each toolchain writes it:
# - nvcc: every kernel in tests/ptx/kernels for three architectures at -O3,
#   -O3 -lineinfo and -G (nvcc 13 no longer targets sm_70: sm_75 is the oldest);
# - NVRTC (what CuPy and run-time compiled kernels use): the same kernels,
#   except those that include host C library headers, which NVRTC lacks;
# - clang (LLVM's NVPTX back end, which Triton uses too): tests/ptx/clang at
#   -O3, -O0 and with debug info;
# - Triton: PTX that Triton 3.6 wrote for tests/ptx/triton/gen_triton_ptx.py.
BUILD   ?= build
NVCC    ?= $(shell command -v nvcc || echo /usr/local/cuda/bin/nvcc)
KERNELS := $(wildcard tests/ptx/kernels/*.cu)
NAMES   := $(notdir $(KERNELS:.cu=))
CONFIGS := sm_75_O3 sm_75_O3_lineinfo sm_75_G sm_80_O3 sm_80_O3_lineinfo sm_80_G sm_90_O3 sm_90_O3_lineinfo sm_90_G
OUT     := $(foreach c,$(CONFIGS),$(foreach n,$(NAMES),$(BUILD)/corpus/$(c)/$(n).ptx))

arch  = $(word 1,$(subst _, ,$(1)))_$(word 2,$(subst _, ,$(1)))
flags = $(if $(findstring _G,$(1)),-G,-O3 $(if $(findstring lineinfo,$(1)),-lineinfo))
extra = $(shell sed -n '1,3s/^\/\/ *CORPUS-FLAGS: *//p' $(1))

CUDA    ?= $(patsubst %/bin/nvcc,%,$(NVCC))
NVRTC_SKIP := device_malloc grid_stride_64bit half_char_types kmeans_assign mbarrier_sync printf_recursion reduce_shfl softmax_row
NVRTC_NAMES := $(filter-out $(NVRTC_SKIP),$(NAMES))
NVRTC_OUT := $(foreach a,80 90,$(foreach n,$(NVRTC_NAMES),$(BUILD)/corpus/nvrtc_$(a)/$(n).ptx))
CLANGXX ?= $(shell command -v clang++)
CLANG_NAMES := $(notdir $(basename $(wildcard tests/ptx/clang/*.cu)))
CLANG_CONFIGS := clang_sm_80_O3 clang_sm_80_O0 clang_sm_86_O3_g clang_sm_75_O0_g
CLANG_OUT := $(if $(CLANGXX),$(foreach c,$(CLANG_CONFIGS),$(foreach n,$(CLANG_NAMES),$(BUILD)/corpus/$(c)/$(n).ptx)))
TRITON_OUT := $(patsubst tests/ptx/triton/%,$(BUILD)/corpus/triton/%,$(wildcard tests/ptx/triton/*.ptx))

all: $(OUT) $(NVRTC_OUT) $(CLANG_OUT) $(TRITON_OUT)
ifeq ($(CLANGXX),)
	$(info gsan: clang++ not found: the clang part of the PTX corpus is skipped (apt-get install clang))
endif

define rule
$(BUILD)/corpus/$(1)/%.ptx: tests/ptx/kernels/%.cu
	@mkdir -p $$(dir $$@)
	@$(NVCC) -ptx -arch=$(call arch,$(1)) $(call flags,$(1)) $$(call extra,$$<) $$< -o $$@.tmp && mv $$@.tmp $$@
endef
$(foreach c,$(CONFIGS),$(eval $(call rule,$(c))))

$(BUILD)/bin/nvrtc_ptx: tests/tools/nvrtc_ptx.c
	@mkdir -p $(dir $@)
	@$(CC) -std=c11 -Wall -Wextra -Werror -I$(CUDA)/include $< -o $@ -L$(CUDA)/lib64 -lnvrtc -Wl,-rpath,$(CUDA)/lib64

define nvrtc_rule
$(BUILD)/corpus/nvrtc_$(1)/%.ptx: tests/ptx/kernels/%.cu $(BUILD)/bin/nvrtc_ptx
	@mkdir -p $$(dir $$@)
	@$(BUILD)/bin/nvrtc_ptx compute_$(1) $$< $$@.tmp -I$(CUDA)/include -lineinfo $$(call extra,$$<) && mv $$@.tmp $$@
endef
$(foreach a,80 90,$(eval $(call nvrtc_rule,$(a))))

clang_arch = $(word 2,$(subst _, ,$(1)))_$(word 3,$(subst _, ,$(1)))
clang_flags = $(if $(findstring O0,$(1)),-O0,-O3) $(if $(filter %_g,$(1)),-g)
define clang_rule
$(BUILD)/corpus/$(1)/%.ptx: tests/ptx/clang/%.cu tests/ptx/clang/clang_cuda.h
	@mkdir -p $$(dir $$@)
	@$(CLANGXX) -x cuda --cuda-gpu-arch=$(call clang_arch,$(1)) --cuda-device-only -nocudainc -nocudalib -Wno-unknown-cuda-version $(call clang_flags,$(1)) -S $$< -o $$@.tmp && mv $$@.tmp $$@
endef
$(foreach c,$(CLANG_CONFIGS),$(eval $(call clang_rule,$(c))))

$(BUILD)/corpus/triton/%.ptx: tests/ptx/triton/%.ptx
	@mkdir -p $(dir $@)
	@cp $< $@
