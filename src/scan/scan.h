/* scan.h: what gsan-scan's parts share. The analyzer reads CUDA C++ with
 * libclang, interprets host and device code symbolically into expression
 * trees (sx) over variables (inputs, launch dimensions, thread ids, loop
 * counters, values loaded from memory), records every memory access with
 * the allocation it falls in, and asks Z3 whether some assignment puts an
 * access outside its allocation. Everything allocated lives until exit. */
#ifndef GSAN_SCAN_H
#define GSAN_SCAN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SCAN_VERSION "0.1.0"

/* ---- memory and strings (scan_util.c) ---- */
void *scan_util_alloc(size_t n); /* zeroed; never freed */
char *scan_util_strdup(const char *s);
char *scan_util_strndup(const char *s, size_t n);
char *scan_util_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *scan_util_vfmt(const char *fmt, va_list ap);
const char *scan_util_intern(const char *s); /* equal strings, one pointer */
const char *scan_util_intern_n(const char *s, size_t n); /* the first n bytes of s, interned */
/* scan_reset.c: forget every analysis so far (findings, variables,
   expressions, cached answers, interned strings) and free all that
   scan_util_alloc handed out, so the next starts as the first did */
void scan_reset(void);
/* each part's share of it */
void scan_util_alloc_reset(void);
void scan_util_intern_reset(void);
void scan_expr_reset(void);
void scan_model_reset(void); /* empties scan_model_state and makes its max_alloc again */
void scan_diag_reset(void);
void scan_check_reset(void);

/* a growable array of T: VEC(T) v = {0}; VEC_PUSH(v, x); v.v[i], v.n */
#define VEC(T) struct { T *v; size_t n, cap; }
#define VEC_PUSH(a, x)                                                              \
  do {                                                                              \
    if ((a).n == (a).cap) {                                                         \
      size_t ncap_ = (a).cap ? 2 * (a).cap : 8;                                     \
      void *nv_ = scan_util_alloc(ncap_ * sizeof *(a).v);                                \
      if ((a).n) memcpy(nv_, (a).v, (a).n * sizeof *(a).v);                        \
      (a).v = nv_;                                                                  \
      (a).cap = ncap_;                                                              \
    }                                                                               \
    (a).v[(a).n++] = (x);                                                           \
  } while (0)

/* a string being built */
typedef VEC(int) int_vec;
typedef VEC(const char *) str_vec;

typedef struct { char *s; size_t n, cap; } scan_buf;
void scan_util_buf_add(scan_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void scan_util_buf_addn(scan_buf *b, const char *s, size_t n);

typedef struct {
  const char *file; /* interned; NULL: no location */
  unsigned line, col;
} scan_loc;
int scan_util_loc_cmp(scan_loc a, scan_loc b);

/* ---- expressions (scan_expr.c): hash-consed bit-vector terms ---- */
typedef enum {
  SX_CONST, SX_VAR,
  SX_ADD, SX_SUB, SX_MUL, SX_UDIV, SX_SDIV, SX_UREM, SX_SREM,
  SX_SHL, SX_LSHR, SX_ASHR, SX_AND, SX_OR, SX_XOR,
  SX_NOT, SX_NEG,               /* unary; NOT of width 1 is logical not */
  SX_ZEXT, SX_SEXT, SX_TRUNC,   /* to width w */
  SX_EQ, SX_ULT, SX_ULE, SX_SLT, SX_SLE, /* width 1 */
  SX_ITE,
} sx_op;

typedef struct sx sx;
typedef VEC(const sx *) sx_vec;
struct sx {
  sx_op op;
  uint8_t w;        /* width in bits, 1..64 */
  uint16_t depth;   /* operations on the longest path to a leaf: at most SX_MAX_DEPTH */
  uint32_t id;      /* dense, for caches */
  const sx *a, *b, *c;
  uint64_t k;       /* SX_CONST: value (masked to w); SX_VAR: variable id */
  uint32_t hash;
  const sx *chain;  /* hash bucket */
};

/* Every walk over an expression (the deciders, the cache's keys, printing)
   recurses on its operands: an operation that would make an expression
   deeper than this (thousands of statements each updating one variable, a
   path condition of as many branches) gives an opaque value instead, so no
   walk runs out of stack. */
#define SX_MAX_DEPTH 1000
uint64_t scan_expr_mask(unsigned w);
int64_t scan_expr_sext_val(uint64_t k, unsigned w); /* k as a signed w-bit value */
unsigned scan_expr_count(void);                     /* ids handed out so far */
const sx *scan_expr_const(unsigned w, uint64_t k);
const sx *scan_expr_var(int var);
const sx *scan_expr_bin(sx_op op, const sx *a, const sx *b);
const sx *scan_expr_un(sx_op op, const sx *a);
const sx *scan_expr_ext(sx_op op, const sx *a, unsigned w); /* ZEXT/SEXT/TRUNC; same width: a */
const sx *scan_expr_ite(const sx *c, const sx *a, const sx *b);
const sx *scan_expr_true(void);
const sx *scan_expr_false(void);
const sx *scan_expr_and(const sx *a, const sx *b);
const sx *scan_expr_or(const sx *a, const sx *b);
const sx *scan_expr_not(const sx *a);
bool scan_expr_is_const(const sx *e, uint64_t *k);
bool scan_expr_is_true(const sx *e);
bool scan_expr_is_false(const sx *e);
/* the variables an expression mentions, added to *out without repeats
   (seen: a byte per variable id, grown by the caller via scan_expr_var_count) */
void scan_expr_vars(const sx *e, int_vec *out, unsigned char *seen);
/* a C-like rendering with variable names; casts left out */
void scan_expr_print(scan_buf *b, const sx *e);
/* conjuncts of a conjunction (nested ANDs of width 1) */
void scan_expr_conjuncts(const sx *e, sx_vec *out);

/* ---- symbolic variables (scan_expr.c) ---- */
typedef enum {
  VK_INPUT,    /* program input: argv, scanf, file contents, entry-point parameters */
  VK_RUNTIME,  /* chosen by the CUDA runtime: an API's status, a pitch */
  VK_GRID, VK_BLOCK, VK_BLOCKIDX, VK_THREADIDX, /* per launch, axis in .axis */
  VK_LOOP,     /* a loop's induction variable at some iteration */
  VK_LOADED,   /* a value read from device memory */
  VK_OPAQUE,   /* a value the model does not compute: why says which */
} scan_vkind;

typedef struct {
  scan_vkind kind;
  const char *name;
  unsigned w;
  bool sgn;
  int axis;           /* 0..2 for launch variables */
  int launch;         /* the launch a launch variable belongs to, else -1 */
  bool hidden;        /* determined by the others: not shown in a witness */
  scan_loc loc;
  const char *why;    /* VK_OPAQUE: the reason, shown when it decides an access */
  sx_vec facts; /* constraints that always hold for it */
  sx_vec inv_facts; /* a loop's invariants (scan_invariant.c): also always hold, asked only
                       where the question without them is not proved (scan_check.c) */
} scan_var;

int scan_expr_var_new(scan_vkind k, const char *name, unsigned w, bool sgn, scan_loc loc);
scan_var *scan_expr_var_get(int id);
unsigned scan_expr_var_count(void);
void scan_expr_var_fact(int id, const sx *fact);
void scan_expr_var_inv_fact(int id, const sx *fact);
/* a fresh opaque value of width w: the reason is kept for the report */
const sx *scan_expr_opaque(unsigned w, bool sgn, scan_loc loc, const char *why);

/* ---- the model (scan_model.c) ---- */
typedef enum {
  RG_DEVICE, RG_MANAGED, RG_PITCHED, RG_HOST, RG_PINNED, /* allocated by calls */
  RG_HOSTVAR, RG_GLOBALVAR,           /* arrays with static storage, host or device */
  RG_SHARED, RG_DYNSHARED, RG_LOCAL,  /* kernel arrays, per launch */
  RG_JOIN,                            /* a pointer to one of two regions by a
                                         condition (c ? a : b): size and
                                         freed-ness chosen by it */
  RG_VAR,                             /* a variable (or a field of one) an access
                                         reaches by its address (&x): its size */
  RG_MEMBER,                          /* an array member of a variable (s.n):
                                         its own bounds; what is stored in it
                                         is not read back */
  RG_UNKNOWN,                         /* a pointer the model cannot follow: why */
  RG_PARAM,                           /* what a parameter declared as an array
                                         (float x[12]) points to when its
                                         argument is not followed: the size
                                         declared, assumed, never a finding */
} scan_rkind;

typedef struct {
  int id;
  scan_rkind kind;
  const char *name;      /* the variable it was first stored in, or the array */
  scan_loc site;         /* the allocation call or declaration */
  const sx *size;        /* bytes, 64-bit */
  const char *size_text; /* the size as written */
  const char *why;       /* RG_UNKNOWN */
  const sx *freed;       /* condition under which it has been freed so far; NULL: never */
  const sx *free_failed; /* ... and under which a free of it failed (cudaFree's status); NULL: never */
  scan_loc free_site;
  int ctx;               /* launch context for per-launch arrays, else -1 */
  bool has_vals;         /* an array of integer constants nothing writes (scan_tables.c): every element */
  int64_t lo, hi;        /* lies in [lo, hi] */
  const int64_t *vals;   /* and, for a short one, the elements: nvals of elsize bytes */
  uint32_t nvals, elsize;
  int join[2];           /* RG_JOIN: the regions chosen between */
  bool automatic;        /* a function's own array (RG_LOCAL, or a host RG_HOSTVAR not
                            static): only a pointer to it reaches it */
} scan_region;

/* a logical partition of a shared or local array: a pointer variable carved
   from it at a byte offset (SCuBA's intra-allocation partitions) */
typedef struct {
  int region;
  const char *name;
  const sx *start; /* bytes from the array's start, 64-bit */
  scan_loc loc;
  int ctx;
} scan_part;

/* AK_USE: a pointer handed to a device function whose body is not seen */
typedef enum { AK_READ, AK_WRITE, AK_ATOMIC, AK_COPY_TO, AK_COPY_FROM, AK_SET, AK_USE } scan_akind;

typedef struct {
  scan_loc loc;
  scan_akind kind;
  const char *base;  /* the pointer as written ('a', 'p->data') */
  int region, part;  /* part: -1 when the access is not through a partition */
  const sx *off;     /* byte offset from the region's start, 64-bit */
  const sx *width;   /* bytes, 64-bit */
  unsigned elem;     /* element size for the index in a witness; 0: bytes */
  const sx *reach;   /* the path condition */
  int ctx;           /* launch context, -1 on the host */
  const char *what;  /* copies, and accesses a named call makes: the call's name */
  const char *why;   /* set: reported unknown for this reason without asking the solver */
  const char *taint; /* set: code with errors was skipped before it: proved, or unknown for this reason */
} scan_access;

/* a use of an allocation on the host that must come before its free */
typedef struct {
  scan_loc loc;
  int region;
  const sx *reach;
  const sx *freed;   /* the region's free condition when it was used */
  const char *name;  /* the pointer as written */
  const char *what;  /* "passed to kernel 'k'", "copied by cudaMemcpy", ... */
  const char *why;   /* set: the function is not followed exactly (goto), so an unknown at most */
  const char *taint; /* set: code with errors was skipped before it, so an unknown at most */
} scan_use;

/* one kernel launch (or a kernel analysed with no launch in sight) */
typedef struct {
  const char *kernel;
  scan_loc site;
  bool free_launch;    /* no launch seen: dimensions and arguments unconstrained */
  bool device_fn;      /* ... of a device function, which no analysed code calls */
  int grid[3], block[3], bidx[3], tidx[3]; /* variable ids */
  const sx *dynshm;    /* bytes, 64-bit; NULL: no dynamic shared memory given */
  int dynshm_region;   /* -1 until the kernel declares extern __shared__ */
} scan_launch;

typedef struct {
  VEC(scan_region) regions;
  VEC(scan_part) parts;
  VEC(scan_access) accesses;
  VEC(scan_use) uses;
  VEC(scan_launch) launches;
  const sx *max_alloc; /* largest allocation that succeeds, 64-bit */
} scan_model;

extern scan_model scan_model_state;
int scan_model_region(scan_rkind k, const char *name, scan_loc site, const sx *size, const char *size_text);
int scan_model_unknown_region(const char *why);
/* a region the model knows: an allocation or a declared array, not a pointer
   it cannot follow nor an array parameter's assumed extent (either may be any
   memory: a null pointer, a caller's array, one freed) */
bool scan_model_known(const scan_region *r);
int scan_model_join(const sx *c, int a, int b, scan_loc at);
scan_region *scan_model_reg(int id);
const sx *scan_model_allocated(int id); /* the allocation succeeded: its size is at most --max-alloc */

/* the verdicts (scan_check.c): findings for every access and host use of the
   model; returns the number of distinct access sites */
unsigned scan_check_all(void);
void scan_check_stats(FILE *out); /* --stats: how the questions were answered */
/* for each of the n formulas fs, whether reach implies it (proved[i]), as
   far as a small share of --rlimit shows: a loop invariant's test */
void scan_check_implied(const sx *reach, const sx *const *fs, int n, bool *proved);

/* ---- options (scan_main.c) ---- */
typedef struct {
  uint64_t rlimit;     /* Z3 resource units per question: deterministic, unlike time */
  uint64_t budget;     /* Z3 resource units for the whole run (every question's, summed) */
  unsigned timeout_ms; /* a wall-clock limit per question besides, against runaways */
  unsigned long max_steps; /* expressions and statements interpreted per entry point */
  bool verbose;
  bool stats;
  bool sarif;
  uint64_t max_alloc;
} scan_opts;
extern scan_opts scan_main_options;

/* ---- findings (scan_diag.c) ---- */
typedef enum { FK_OOB, FK_PARTITION, FK_UNVALIDATED, FK_UAF, FK_UNKNOWN } scan_fkind;
#define FK_COUNT 5
const char *scan_diag_kind_tag(scan_fkind k);   /* gsan-scan-oob, ... */
const char *scan_diag_kind_title(scan_fkind k); /* a short description, for SARIF rules */

typedef struct {
  scan_loc loc;
  const char *text;
} scan_note;

typedef struct {
  scan_fkind kind;
  scan_loc loc;
  const char *msg;
  VEC(scan_note) notes;
  const char *witness; /* "N=17, blockDim.x=256: index 17 >= size 17"; NULL: none */
  bool dropped;        /* superseded by a worse verdict at the same place */
} scan_finding;

scan_finding *scan_diag_new(scan_fkind k, scan_loc loc, const char *msg);
/* the same, unless one of that kind, place and text was made already (a
   remark about a header's function that several programs of the run
   include): NULL then */
scan_finding *scan_diag_once(scan_fkind k, scan_loc loc, const char *msg);
void scan_diag_note(scan_finding *f, scan_loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void scan_diag_sort(void);
size_t scan_diag_count(void);   /* including dropped ones */
unsigned scan_diag_reported(scan_fkind k); /* not dropped, of kind k */
scan_finding *scan_diag_get(size_t i);
/* the one printer of compiler-style messages: FILE:LINE:COL: LEVEL: MSG,
   the source line and a caret for a located message */
void scan_diag_emit(FILE *out, scan_loc loc, const char *level, const char *msg);
void scan_diag_print_text(FILE *out, unsigned accesses);
void scan_sarif_print(FILE *out, const char *const *files, int nfiles);
/* a file that could not be analysed, and why: a tool execution notification
   (level error) in the SARIF log, which is then not executionSuccessful */
void scan_sarif_not_analysed(const char *file, const char *why);
/* a file with errors whose other functions were analysed (WHY: its first error) */
void scan_sarif_analysed_in_part(const char *file, const char *why);
void scan_diag_summary(FILE *out, unsigned accesses);
const char *scan_diag_source_line(const char *file, unsigned line);
/* file's text as given, for a file parsed from memory (not read from disk) */
void scan_diag_source_text(const char *file, const char *text, size_t n);

#endif
