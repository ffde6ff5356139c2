/* The fake VMM (fake_vmm.h). Deliberately strict: anything the real driver
 * would reject, or that would leak, is counted as an error the tests check. */
#include "fake_vmm.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct phys { uint64_t id, size; unsigned char *mem; int maps; } phys;
typedef struct mapping { uint64_t addr, size; phys *p; } mapping;
typedef struct resv { uint64_t addr, size; } resv;

struct fake_vmm {
  pthread_mutex_t lock;
  uint64_t granule, next_va, next_id, live_bytes;
  phys **ph;
  int nph, cap_ph;
  mapping *maps;
  int nmaps, cap_maps;
  resv rs[16];
  int nrs;
  int errors, fail_after, deny_hint;
  uint64_t map_calls; /* maps and unmaps, successful or not */
};

fake_vmm *fake_vmm_new(uint64_t granule) {
  fake_vmm *f = calloc(1, sizeof *f);
  pthread_mutex_init(&f->lock, NULL);
  f->granule = granule;
  f->next_va = 0x7f0000000000ull;
  f->fail_after = -1;
  return f;
}

void fake_vmm_free(fake_vmm *f) {
  for (int i = 0; i < f->nph; i++) {
    free(f->ph[i]->mem);
    free(f->ph[i]);
  }
  free(f->ph);
  free(f->maps);
  pthread_mutex_destroy(&f->lock);
  free(f);
}

static int err(fake_vmm *f, const char *what, uint64_t a) {
  fprintf(stderr, "fake vmm: %s (0x%llx)\n", what, (unsigned long long)a);
  f->errors++;
  return 1; /* CUDA_ERROR_INVALID_VALUE */
}

static int fk_reserve(void *ctx, uint64_t size, uint64_t align, uint64_t hint, uint64_t *out) {
  fake_vmm *f = ctx;
  pthread_mutex_lock(&f->lock);
  uint64_t a = hint && !f->deny_hint ? hint : (f->next_va + align - 1) / align * align;
  for (int i = 0; i < f->nrs; i++)
    if (a < f->rs[i].addr + f->rs[i].size && f->rs[i].addr < a + size) a = (f->next_va + align - 1) / align * align;
  if (f->nrs == 16) { pthread_mutex_unlock(&f->lock); return err(f, "too many reservations", a); }
  f->rs[f->nrs++] = (resv){a, size};
  if (a + size > f->next_va) f->next_va = a + size;
  *out = a;
  pthread_mutex_unlock(&f->lock);
  return 0;
}

static int fk_unreserve(void *ctx, uint64_t addr, uint64_t size) {
  fake_vmm *f = ctx;
  pthread_mutex_lock(&f->lock);
  int found = -1, rc = 0;
  for (int i = 0; i < f->nrs; i++)
    if (f->rs[i].addr == addr && f->rs[i].size == size) found = i;
  if (found < 0) rc = err(f, "unreserve of an unknown range", addr);
  else f->rs[found] = f->rs[--f->nrs];
  for (int i = 0; i < f->nmaps; i++)
    if (f->maps[i].addr >= addr && f->maps[i].addr < addr + size) rc = err(f, "unreserve with mappings left", addr);
  pthread_mutex_unlock(&f->lock);
  return rc;
}

static int fk_create(void *ctx, uint64_t size, int device, uint64_t *handle) {
  fake_vmm *f = ctx;
  (void)device;
  pthread_mutex_lock(&f->lock);
  int rc = 0;
  if (f->fail_after == 0) { rc = 2; goto out; } /* CUDA_ERROR_OUT_OF_MEMORY */
  if (f->fail_after > 0) f->fail_after--;
  if (!size || size % f->granule) { rc = err(f, "create of a size that is not a granule multiple", size); goto out; }
  phys *p = calloc(1, sizeof *p);
  p->id = ++f->next_id;
  p->size = size;
  if (f->nph == f->cap_ph) {
    f->cap_ph = f->cap_ph ? f->cap_ph * 2 : 64;
    f->ph = realloc(f->ph, (size_t)f->cap_ph * sizeof *f->ph);
  }
  f->ph[f->nph++] = p;
  f->live_bytes += size;
  *handle = p->id;
out:
  pthread_mutex_unlock(&f->lock);
  return rc;
}

static phys *find_phys(fake_vmm *f, uint64_t id, int *idx) {
  for (int i = 0; i < f->nph; i++)
    if (f->ph[i]->id == id) { if (idx) *idx = i; return f->ph[i]; }
  return NULL;
}

static int fk_release(void *ctx, uint64_t handle) {
  fake_vmm *f = ctx;
  pthread_mutex_lock(&f->lock);
  int i, rc = 0;
  phys *p = find_phys(f, handle, &i);
  if (!p) rc = err(f, "release of an unknown handle", handle);
  else if (p->maps) rc = err(f, "release of a mapped handle", handle);
  else {
    f->live_bytes -= p->size;
    free(p->mem);
    free(p);
    f->ph[i] = f->ph[--f->nph];
  }
  pthread_mutex_unlock(&f->lock);
  return rc;
}

static int fk_map(void *ctx, uint64_t addr, uint64_t size, uint64_t handle, int device) {
  fake_vmm *f = ctx;
  (void)device;
  pthread_mutex_lock(&f->lock);
  f->map_calls++;
  int rc = 0, inside = 0;
  phys *p = find_phys(f, handle, NULL);
  for (int i = 0; i < f->nrs; i++)
    if (addr >= f->rs[i].addr && addr + size <= f->rs[i].addr + f->rs[i].size) inside = 1;
  if (!p || p->size != size) rc = err(f, "map with a wrong handle or size", addr);
  else if (!inside) rc = err(f, "map outside every reservation", addr);
  else if (addr % f->granule) rc = err(f, "map at an unaligned address", addr);
  for (int i = 0; !rc && i < f->nmaps; i++)
    if (addr < f->maps[i].addr + f->maps[i].size && f->maps[i].addr < addr + size) rc = err(f, "overlapping map", addr);
  if (!rc) {
    if (f->nmaps == f->cap_maps) {
      f->cap_maps = f->cap_maps ? f->cap_maps * 2 : 64;
      f->maps = realloc(f->maps, (size_t)f->cap_maps * sizeof *f->maps);
    }
    f->maps[f->nmaps++] = (mapping){addr, size, p};
    p->maps++;
  }
  pthread_mutex_unlock(&f->lock);
  return rc;
}

static int fk_unmap(void *ctx, uint64_t addr, uint64_t size) {
  fake_vmm *f = ctx;
  pthread_mutex_lock(&f->lock);
  f->map_calls++;
  int found = -1, rc = 0;
  for (int i = 0; i < f->nmaps; i++)
    if (f->maps[i].addr == addr && f->maps[i].size == size) found = i;
  if (found < 0) {
    rc = err(f, "unmap of a range that is not one mapping", addr);
  } else {
    f->maps[found].p->maps--;
    f->maps[found] = f->maps[--f->nmaps];
  }
  pthread_mutex_unlock(&f->lock);
  return rc;
}

/* host backing appears on first touch, filled with a pattern: fresh
 * physical memory is not zero, and whoever needs zeros must write them */
static unsigned char *at(fake_vmm *f, uint64_t addr, size_t n) {
  for (int i = 0; i < f->nmaps; i++)
    if (addr >= f->maps[i].addr && addr + n <= f->maps[i].addr + f->maps[i].size) {
      phys *p = f->maps[i].p;
      if (!p->mem) {
        p->mem = malloc(p->size);
        memset(p->mem, 0xA5, p->size);
      }
      return p->mem + (addr - f->maps[i].addr);
    }
  return NULL;
}

static int fk_write(void *ctx, uint64_t addr, const void *src, size_t size) {
  fake_vmm *f = ctx;
  pthread_mutex_lock(&f->lock);
  unsigned char *p = at(f, addr, size);
  int rc = p ? 0 : err(f, "write to unmapped memory", addr);
  if (p) memcpy(p, src, size);
  pthread_mutex_unlock(&f->lock);
  return rc;
}

static int fk_set64(void *ctx, uint64_t addr, uint64_t value) { return fk_write(ctx, addr, &value, 8); }
static int fk_set32(void *ctx, uint64_t addr, uint32_t value) { return fk_write(ctx, addr, &value, 4); }

static int fk_zero(void *ctx, uint64_t addr, uint64_t size) {
  fake_vmm *f = ctx;
  pthread_mutex_lock(&f->lock);
  unsigned char *p = at(f, addr, size);
  int rc = p ? 0 : err(f, "zeroing unmapped memory", addr);
  if (p) memset(p, 0, size);
  pthread_mutex_unlock(&f->lock);
  return rc;
}

rt_vmm fake_vmm_ops(fake_vmm *f) {
  rt_vmm v = {f, fk_reserve, fk_unreserve, fk_create, fk_release, fk_map, fk_unmap, fk_set64, fk_set32, fk_zero, f->granule};
  return v;
}

int fake_vmm_write(fake_vmm *f, uint64_t addr, const void *src, size_t size) { return fk_write(f, addr, src, size); }

int fake_vmm_read(fake_vmm *f, uint64_t addr, void *dst, size_t size) {
  pthread_mutex_lock(&f->lock);
  unsigned char *p = at(f, addr, size);
  if (p) memcpy(dst, p, size);
  pthread_mutex_unlock(&f->lock);
  return p ? 0 : 1;
}

uint64_t fake_vmm_read64(fake_vmm *f, uint64_t addr, int *ok) {
  pthread_mutex_lock(&f->lock);
  unsigned char *p = at(f, addr, 8);
  uint64_t v = 0;
  if (p) memcpy(&v, p, 8);
  *ok = p != NULL;
  pthread_mutex_unlock(&f->lock);
  return v;
}

int fake_vmm_is_mapped(fake_vmm *f, uint64_t addr) {
  pthread_mutex_lock(&f->lock);
  int m = at(f, addr, 1) != NULL;
  pthread_mutex_unlock(&f->lock);
  return m;
}

uint64_t fake_vmm_created_bytes(fake_vmm *f) { return f->live_bytes; }
int fake_vmm_mappings(fake_vmm *f) { return f->nmaps; }
uint64_t fake_vmm_map_calls(fake_vmm *f) { return f->map_calls; }
int fake_vmm_errors(fake_vmm *f) { return f->errors; }
void fake_vmm_fail_create_after(fake_vmm *f, int n) { f->fail_after = n; }
void fake_vmm_deny_hint(fake_vmm *f, int deny) { f->deny_hint = deny; }

int fake_vmm_reservation(fake_vmm *f, uint64_t addr, uint64_t *base, uint64_t *size) {
  pthread_mutex_lock(&f->lock);
  int found = 0;
  for (int i = 0; i < f->nrs; i++)
    if (addr >= f->rs[i].addr && addr < f->rs[i].addr + f->rs[i].size) {
      *base = f->rs[i].addr;
      *size = f->rs[i].size;
      found = 1;
    }
  pthread_mutex_unlock(&f->lock);
  return found;
}
