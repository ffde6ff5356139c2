/* Launch proofs (ABI 5, docs/abi.md "Launch proofs"): a kernel's facts,
 * read from its __gsan_lpf_ blob, and whether they all hold for one launch.
 * Each fact says an access stays inside its root for every thread of the
 * launch that passes the access's guards; it is tested in interval
 * arithmetic over the thread and block indices the launch's dimensions
 * allow, with the parameters' actual values. A fact holds only when that is
 * shown: an operation that could wrap, a value the launch does not fix, a
 * freed root, all make it fail, and the launch then runs the checked copy. */
#ifndef GSAN_RT_PROOF_H
#define GSAN_RT_PROOF_H

#include <stddef.h>
#include <stdint.h>

typedef struct rt_facts rt_facts;

/* A validated copy of the blob; NULL with a reason when it is malformed
 * (nparams: the kernel's parameter count, which the blob must agree with). */
rt_facts *rt_facts_parse(const void *blob, size_t n, unsigned nparams, const char **why);
void rt_facts_free(rt_facts *f);
unsigned rt_facts_count(const rt_facts *f);
/* the parameter words whose pointers' bounds the facts read (*words),
 * and their count */
unsigned rt_facts_words(const rt_facts *f, const uint16_t **words);
/* one read of a parameter by the facts' nodes: bytes at byte off of
 * parameter index */
typedef struct rt_facts_read {
  uint16_t index, bytes;
  uint32_t off;
} rt_facts_read;
/* the distinct parameter reads of the facts (*reads), and their count:
 * with the launch's dimensions, its dynamic shared bytes and the bounds of
 * the words' pointers, all that an evaluation depends on */
unsigned rt_facts_params(const rt_facts *f, const rt_facts_read **reads);

/* What a launch fixes: its dimensions and dynamic shared bytes, and through
 * callbacks its parameters and the bounds of a pointer. */
typedef struct rt_proof_launch {
  unsigned grid[3], block[3];
  uint64_t dynamic_smem;
  void *ctx;
  /* bytes (1, 2, 4 or 8) at byte off of parameter index, little endian;
   * 0 when that is not inside the parameter */
  int (*param)(void *ctx, unsigned index, uint64_t off, unsigned bytes, uint64_t *out);
  /* the 8-byte parameter word w; 0 when there is none */
  int (*word)(void *ctx, unsigned w, uint64_t *out);
  /* the bounds a check of pointer p uses: [base, base + size) of its live
   * allocation, or the unchecked bounds outside the arena; 0 when p's
   * allocation is freed or was never made */
  int (*bounds)(void *ctx, uint64_t p, uint64_t *base, uint64_t *size);
} rt_proof_launch;

/* 1 when every fact holds for the launch, 0 otherwise (also when memory
 * for the evaluation is short) */
int rt_facts_hold(const rt_facts *f, const rt_proof_launch *l);
/* -1 when every fact holds, else the index of the first one that is not
 * shown to (0 when the evaluation could not be made) */
int rt_facts_failing(const rt_facts *f, const rt_proof_launch *l);

#endif
