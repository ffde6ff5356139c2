# The PTX corpus: every kernel in tests/ptx/kernels compiled by nvcc for three
# architectures at -O3, -O3 -lineinfo and -G. nvcc 13 no longer targets
# sm_70, so the oldest architecture here is sm_75.
BUILD   ?= build
NVCC    ?= $(shell command -v nvcc || echo /usr/local/cuda/bin/nvcc)
KERNELS := $(wildcard tests/ptx/kernels/*.cu)
NAMES   := $(notdir $(KERNELS:.cu=))
CONFIGS := sm_75_O3 sm_75_O3_lineinfo sm_75_G sm_80_O3 sm_80_O3_lineinfo sm_80_G sm_90_O3 sm_90_O3_lineinfo sm_90_G
OUT     := $(foreach c,$(CONFIGS),$(foreach n,$(NAMES),$(BUILD)/corpus/$(c)/$(n).ptx))

arch  = $(word 1,$(subst _, ,$(1)))_$(word 2,$(subst _, ,$(1)))
flags = $(if $(findstring _G,$(1)),-G,-O3 $(if $(findstring lineinfo,$(1)),-lineinfo))
extra = $(shell sed -n '1,3s/^\/\/ *CORPUS-FLAGS: *//p' $(1))

all: $(OUT)

define rule
$(BUILD)/corpus/$(1)/%.ptx: tests/ptx/kernels/%.cu
	@mkdir -p $$(dir $$@)
	@$(NVCC) -ptx -arch=$(call arch,$(1)) $(call flags,$(1)) $$(call extra,$$<) $$< -o $$@.tmp && mv $$@.tmp $$@
endef
$(foreach c,$(CONFIGS),$(eval $(call rule,$(c))))
