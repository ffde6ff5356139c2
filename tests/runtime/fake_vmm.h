/* An in-process stand-in for the driver's VMM calls, for the runtime's CPU
 * tests: reservations, physical handles backed by host memory, mappings that
 * must not overlap and must be undone exactly, and failure injection. */
#ifndef GSAN_FAKE_VMM_H
#define GSAN_FAKE_VMM_H

#include "../../src/runtime/rt_vmm.h"

typedef struct fake_vmm fake_vmm;

fake_vmm *fake_vmm_new(uint64_t granule);
void fake_vmm_free(fake_vmm *f);
rt_vmm fake_vmm_ops(fake_vmm *f);
/* reads 8 bytes of mapped memory, as the device would; sets *ok to 0 on a fault */
uint64_t fake_vmm_read64(fake_vmm *f, uint64_t addr, int *ok);
/* host bytes into mapped fake device memory (the fake driver's copies) */
int fake_vmm_write(fake_vmm *f, uint64_t addr, const void *src, size_t size);
/* mapped fake device memory into host bytes; 0, or 1 when not all mapped */
int fake_vmm_read(fake_vmm *f, uint64_t addr, void *dst, size_t size);
int fake_vmm_is_mapped(fake_vmm *f, uint64_t addr);
uint64_t fake_vmm_created_bytes(fake_vmm *f);  /* physical memory alive now */
int fake_vmm_mappings(fake_vmm *f);
uint64_t fake_vmm_map_calls(fake_vmm *f);   /* map and unmap calls so far */
int fake_vmm_errors(fake_vmm *f);             /* misuse seen: overlap, bad unmap, ... */
void fake_vmm_fail_create_after(fake_vmm *f, int n); /* the n+1-th create fails; -1 never */
void fake_vmm_deny_hint(fake_vmm *f, int deny);
/* the reservation holding addr, as the driver reports VMM ranges; 0 if none */
int fake_vmm_reservation(fake_vmm *f, uint64_t addr, uint64_t *base, uint64_t *size);

#endif
