/* libFuzzer harness for launch facts (rt_proof.c): the input is a facts
 * blob as a module's __gsan_lpf_ global holds it. rt_facts_parse must
 * either refuse it with a reason or accept it, and every accepted blob
 * must evaluate, on launches of several shapes (one thread, a large grid,
 * dynamic shared memory), to a verdict without crashing, leaking or undefined
 * behaviour. The parameters are bytes of the input itself, so a mutation
 * moves them too; a pointer is in bounds of an allocation of 1 MiB at its
 * own value, or freed, or outside the arena, by its low bits. */
#include "../../src/runtime/rt_proof.h"

#include <gsan/abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct input {
  const uint8_t *data;
  size_t size;
} input;

/* parameter i's bytes: the input's, from a place that depends on i and off */
static int param(void *ctx, unsigned index, uint64_t off, unsigned bytes, uint64_t *out) {
  const input *in = ctx;
  if (index > 64 || off > 64 || !in->size) return 0;
  *out = 0;
  for (unsigned k = 0; k < bytes; k++) *out |= (uint64_t)in->data[(index * 8 + off + k) % in->size] << (8 * k);
  return 1;
}

static int word(void *ctx, unsigned w, uint64_t *out) { return param(ctx, w, 0, 8, out); }

static int bounds(void *ctx, uint64_t p, uint64_t *base, uint64_t *size) {
  (void)ctx;
  switch (p & 3) {
  case 0: *base = p & ~0xfffffull; *size = 1 << 20; return 1; /* a live allocation */
  case 1: return 0;                                         /* freed */
  default: *base = 0; *size = GSAN_UNCHECKED_SIZE; return 1; /* outside the arena */
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gsan_facts_header h;
  unsigned nparams = 0;
  if (size >= sizeof h) {
    memcpy(&h, data, sizeof h);
    nparams = h.nparams; /* the count the blob claims, so that not every input fails on it */
  }
  const char *why = NULL;
  rt_facts *f = rt_facts_parse(data, size, nparams, &why);
  if (!f) {
    if (!why || !*why) {
      fprintf(stderr, "gsan fuzz: a refused blob without a reason\n");
      abort();
    }
    return 0;
  }
  input in = {data, size};
  static const unsigned shapes[][7] = {{1, 1, 1, 1, 1, 1, 0},
                                       {1000, 7, 1, 256, 1, 1, 4096},
                                       {2147483647u, 65535, 65535, 1024, 1, 1, 0},
                                       {3, 2, 1, 32, 8, 4, 49152}};
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    const unsigned *s = shapes[k];
    rt_proof_launch l = {{s[0], s[1], s[2]}, {s[3], s[4], s[5]}, s[6], &in, param, word, bounds};
    int failing = rt_facts_failing(f, &l);
    if (failing < -1 || failing >= (int)rt_facts_count(f) + (rt_facts_count(f) == 0)) {
      fprintf(stderr, "gsan fuzz: a verdict outside the facts: %d of %u\n", failing, rt_facts_count(f));
      abort();
    }
    if (rt_facts_hold(f, &l) != (failing < 0)) {
      fprintf(stderr, "gsan fuzz: rt_facts_hold disagrees with rt_facts_failing\n");
      abort();
    }
  }
  rt_facts_free(f);
  return 0;
}
