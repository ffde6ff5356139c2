/* The contract between instrumented PTX and the gsan runtime (docs/abi.md).
 * Every number here appears in the PTX the instrumenter writes; change one and
 * bump GSAN_ABI_VERSION. */
#ifndef GSAN_ABI_H
#define GSAN_ABI_H

#include <stdint.h>

#ifdef __cplusplus
#define GSAN_STATIC_ASSERT static_assert
#else
#define GSAN_STATIC_ASSERT _Static_assert
#endif

#define GSAN_ABI_VERSION 5

/* the inline helpers below are also called by device code (binary mode's
 * patch, src/runtime/rt_binary_patch.cu) */
#ifdef __CUDACC__
#define GSAN_HD __host__ __device__
#else
#define GSAN_HD
#endif

/* Module symbols the instrumenter adds. The runtime finds them by name. */
#define GSAN_CTX_SYMBOL "__gsan_ctx"            /* .weak .const, GSAN_CTX_BYTES */
#define GSAN_REPORT_FUNC "__gsan_report"        /* .weak .func, the failure path */
#define GSAN_SITES_PREFIX "__gsan_sites_"       /* + 16 hex digits of the module id */

/* Layout of __gsan_ctx (filled by the runtime after the module loads; all zero
 * means "no runtime": arena pointers go unchecked, static bounds still hold). */
#define GSAN_CTX_ARENA_BASE 0   /* u64 */
#define GSAN_CTX_ARENA_SIZE 8   /* u64; 0 disables arena lookups */
#define GSAN_CTX_TABLE_BASE 16  /* u64: device address of the slot tables */
#define GSAN_CTX_RING 24        /* u64: device address of the host-mapped ring */
#define GSAN_CTX_RING_CTL 32    /* u64: device address of gsan_ring_ctl (device memory) */
#define GSAN_CTX_REGION_SHIFT 40 /* u32: log2 of one class region */
#define GSAN_CTX_MIN_SHIFT 44   /* u32: log2 of the smallest class (class k = 2^(k+min)) */
#define GSAN_CTX_TABLE_SHIFT 48 /* u32: log2 of the byte distance between class tables */
#define GSAN_CTX_ABI 52         /* u32: GSAN_ABI_VERSION, written by the runtime */
#define GSAN_CTX_FLAGS 56       /* u32: reserved, 0 */
#define GSAN_CTX_BYTES 64

/* Launch bounds (ABI 4, docs/abi.md "Launch bounds"): next to a kernel whose
 * pointer parameters are checked, the instrumenter writes a copy named
 * GSAN_LAUNCH_PREFIX + the kernel's name, with one parameter more at the end,
 * `.param .align 8 .b8 __gsan_lb[16 * W]`. Entry w of it describes the
 * 8-byte word at byte offset 8 * w of the kernel's own parameters, as the
 * launch gives them: the copy reads a pointer parameter's bounds there
 * instead of looking them up in every thread. The runtime launches the copy
 * in place of the kernel and fills the entries; a launch it does not see
 * runs the kernel itself, which looks its bounds up as before. */
#define GSAN_LAUNCH_PREFIX "__gsan_lb_"
#define GSAN_LAUNCH_PARAM "__gsan_lb"
#define GSAN_LAUNCH_MAX_BYTES 4096 /* user parameters + __gsan_lb: the copy is left out beyond */

typedef struct gsan_launch_entry {
  uint64_t base;  /* the word's slot base (value & -class size); 0 outside the launching device's arena */
  uint64_t entry; /* device address of its slot table entry; 0: unchecked (size GSAN_UNCHECKED_SIZE) */
} gsan_launch_entry;
GSAN_STATIC_ASSERT(sizeof(gsan_launch_entry) == 16, "launch entry layout");

/* Size the lookup reports for a pointer outside the arena: large enough that
 * every offset of a real address passes, small enough to stay positive. */
#define GSAN_UNCHECKED_SIZE 0x4000000000000000ull

/* Launch proofs (ABI 5, docs/abi.md "Launch proofs"): next to a kernel's
 * launch-bounds copy, the instrumenter may write GSAN_PROVEN_PREFIX + the
 * kernel's name, the launch-bounds copy without the checks whose addresses
 * are functions of the launch alone (parameters, thread and block indices,
 * launch dimensions), and GSAN_FACTS_PREFIX + the kernel's name, a .global
 * blob that says what those checks test: a header, nodes (an expression
 * DAG), conditions (the guards the accesses run under) and facts (one per
 * check left out). At a launch the runtime evaluates every fact over all
 * the launch's threads in interval arithmetic; when each one holds, the
 * launch runs the proven copy, else the launch-bounds copy. The proven
 * copy has the launch-bounds copy's parameters. */
#define GSAN_PROVEN_PREFIX "__gsan_lp_"
#define GSAN_FACTS_PREFIX "__gsan_lpf_"
#define GSAN_FACTS_MAGIC 0x46504c47u /* "GLPF" little endian */
#define GSAN_FACTS_MAX_NODES 4096
#define GSAN_FACTS_MAX_FACTS 2048
#define GSAN_FACTS_MAX_CONDS 8192

typedef struct gsan_facts_header {
  uint32_t magic;    /* GSAN_FACTS_MAGIC */
  uint32_t version;  /* GSAN_ABI_VERSION */
  uint16_t nnodes, nconds, nfacts, nparams; /* nparams: the kernel's own parameters */
} gsan_facts_header;
GSAN_STATIC_ASSERT(sizeof(gsan_facts_header) == 16, "facts header layout");

/* A node's value is an integer of `bits` bits (8, 16, 32 or 64); its
 * operands a and b are earlier nodes. sgn says how an operation that is not
 * modular reads its operands (signed or unsigned): min, max, shr, div, rem,
 * and, the widening cvt, mul.wide, a parameter narrower than 64 bits. */
enum gsan_fact_op {
  GSAN_FN_IMM = 1,   /* imm */
  GSAN_FN_PARAM,     /* the bits/8 bytes at byte imm of kernel parameter a */
  GSAN_FN_SREG,      /* special register imm (enum gsan_fact_sreg) */
  GSAN_FN_SYM,       /* the address of variable imm: 0 for the fact rooted at it, unknown otherwise */
  GSAN_FN_ADD,       /* a + b */
  GSAN_FN_SUB,       /* a - b */
  GSAN_FN_MUL,       /* a * b, low bits */
  GSAN_FN_MULWIDE,   /* a * b, both of bits/2 bits, the whole product */
  GSAN_FN_SHL,       /* a << imm */
  GSAN_FN_SHR,       /* a >> imm (sgn: arithmetic) */
  GSAN_FN_DIV,       /* a / imm, imm > 0 */
  GSAN_FN_REM,       /* a % imm, imm > 0 */
  GSAN_FN_AND,       /* a & imm, imm >= 0 */
  GSAN_FN_MIN,       /* min(a, b) */
  GSAN_FN_MAX,       /* max(a, b) */
  GSAN_FN_CVT,       /* a converted to bits bits (widened by sgn, or truncated) */
  GSAN_FN_OR         /* a | imm, imm >= 0 */
};
enum gsan_fact_sreg {
  GSAN_SR_TID_X = 0, GSAN_SR_TID_Y, GSAN_SR_TID_Z, GSAN_SR_NTID_X, GSAN_SR_NTID_Y, GSAN_SR_NTID_Z,
  GSAN_SR_CTAID_X, GSAN_SR_CTAID_Y, GSAN_SR_CTAID_Z, GSAN_SR_NCTAID_X, GSAN_SR_NCTAID_Y, GSAN_SR_NCTAID_Z,
  GSAN_SR_LANEID, GSAN_SR_DYNAMIC_SMEM, GSAN_SR_COUNT
};
/* how many operand nodes an operation reads: 0 (a leaf), 1 (a) or 2 (a, b) */
GSAN_HD static inline int gsan_fact_operands(int op) {
  switch (op) {
  case GSAN_FN_ADD: case GSAN_FN_SUB: case GSAN_FN_MUL: case GSAN_FN_MULWIDE: case GSAN_FN_MIN: case GSAN_FN_MAX:
    return 2;
  case GSAN_FN_SHL: case GSAN_FN_SHR: case GSAN_FN_DIV: case GSAN_FN_REM: case GSAN_FN_AND: case GSAN_FN_OR:
  case GSAN_FN_CVT:
    return 1;
  default: return 0;
  }
}
typedef struct gsan_fact_node {
  uint8_t op, bits, sgn, pad;
  uint16_t a, b;
  int64_t imm;
} gsan_fact_node;
GSAN_STATIC_ASSERT(sizeof(gsan_fact_node) == 16, "fact node layout");

/* "a cmp b" holds, both read as bits-bit integers (sgn: signed), wherever
 * the facts that list it are tested */
enum gsan_fact_cmp { GSAN_FC_LT = 0, GSAN_FC_LE, GSAN_FC_GT, GSAN_FC_GE, GSAN_FC_EQ };
typedef struct gsan_fact_cond {
  uint16_t a, b;
  uint8_t cmp, sgn, bits, pad;
} gsan_fact_cond;
GSAN_STATIC_ASSERT(sizeof(gsan_fact_cond) == 8, "fact condition layout");

/* A check left out of the proven copy: for every thread of the launch that
 * satisfies conditions cond0 .. cond0 + nconds - 1, bytes [addr + lo,
 * addr + hi) lie inside the root: the allocation of the pointer in
 * parameter word `word` (GSAN_FR_WORD; outside the arena, the unchecked
 * bounds), variable `word` of `size` bytes (GSAN_FR_VAR: addr counts from
 * the variable; its node is GSAN_FN_SYM with imm = word), or the launch's
 * dynamic shared memory (GSAN_FR_DYNAMIC, GSAN_FN_SYM likewise). */
enum gsan_fact_root { GSAN_FR_WORD = 1, GSAN_FR_VAR, GSAN_FR_DYNAMIC };
typedef struct gsan_fact {
  uint16_t addr;
  uint8_t root, nconds;
  uint16_t cond0, word;
  int32_t lo, hi;
  uint64_t size;
} gsan_fact;
GSAN_STATIC_ASSERT(sizeof(gsan_fact) == 24, "fact layout");

/* Slot table entry (u64): exact allocation size in bytes; 0 = no live
 * allocation (never allocated or freed). */

/* Ring buffer: header then records, in host-mapped pinned memory. */
#define GSAN_RING_CAPACITY 0    /* u32, a power of two (records) */
#define GSAN_RING_TAIL 4        /* u32, records consumed by the host */
#define GSAN_RING_HEADER_BYTES 64
#define GSAN_RECORD_BYTES 64

/* Control block in device memory: atomics on host-mapped memory are not
 * guaranteed, so the producer counter lives on the device. */
#define GSAN_RING_CTL_HEAD 0    /* u32, records claimed */
#define GSAN_RING_CTL_DROPPED 4 /* u32, records lost because the ring was full */
#define GSAN_RING_CTL_HEAP 8    /* u64 (ABI 3): device address of the device heap's
                                 * gsan_heap_run[GSAN_HEAP_CLASSES]; 0 = no gsan heap:
                                 * in-kernel malloc/free go to the driver's */
/* Then a count per failing site (open addressing on gsan_site_key, at most
 * GSAN_SITE_PROBES slots from gsan_site_slot): a site's first
 * GSAN_SITE_RECORDS failures are written to the ring, the rest only counted
 * here, so a check failing in a million threads costs a million atomic adds,
 * not a million ring records. A site that finds no slot records every time. */
#define GSAN_RING_CTL_SITES 64  /* gsan_site_count[GSAN_SITE_SLOTS] */
#define GSAN_SITE_SLOTS 4096
#define GSAN_SITE_PROBES 8
#define GSAN_SITE_RECORDS 4
#define GSAN_RING_CTL_BYTES (GSAN_RING_CTL_SITES + 16 * GSAN_SITE_SLOTS)
#define GSAN_SITE_KEY_MUL 0x9E3779B97F4A7C15ull

typedef struct gsan_site_count {
  uint64_t key;  /* gsan_site_key(module_id, site); 0: a free slot */
  uint32_t hits; /* failures at the site, recorded or not */
  /* 1 once a failure of the site got its record in (or was dropped): a
   * counted failure waits for that before it returns (for a bounded
   * time), so in halt mode its trap cannot end the kernel before the
   * site's record is whole */
  uint32_t recorded;
} gsan_site_count;

GSAN_HD static inline uint64_t gsan_site_key(uint64_t module_id, uint32_t site) {
  return (module_id ^ ((uint64_t)site * GSAN_SITE_KEY_MUL)) | 1;
}
GSAN_HD static inline uint32_t gsan_site_slot(uint64_t key) { return (uint32_t)(key >> 52); }

/* The device heap (docs/runtime.md, "The device heap"): in-kernel malloc
 * takes a slot of the arena from a run the runtime set aside per size class
 * (indexed by the arena class k), writes its exact size into the slot
 * table and describes the block in the run's host-mapped metadata; free
 * checks the block's state word (device memory) by compare-and-swap. */
#define GSAN_HEAP_CLASSES 32
enum gsan_heap_state { GSAN_HEAP_NEVER = 0, GSAN_HEAP_LIVE = 1, GSAN_HEAP_FREED = 2 };
/* a free that fails is recorded with base 0 and this outcome as its size */
enum gsan_heap_free_error { GSAN_HEAP_DOUBLE_FREE = 1, GSAN_HEAP_INVALID_FREE = 2 };

typedef struct gsan_heap_run {
  uint64_t first;  /* address of the run's first slot; 0: the class has no run */
  uint64_t meta;   /* device address of count gsan_heap_block (host-mapped) */
  uint64_t state;  /* device address of count u32 enum gsan_heap_state (device memory) */
  uint32_t count;  /* slots in the run */
  uint32_t next;   /* slots claimed so far (atomic add; past count: exhausted) */
} gsan_heap_run;

GSAN_STATIC_ASSERT(sizeof(gsan_heap_run) == 32, "heap run layout");

typedef struct gsan_heap_block {
  uint32_t state;      /* enum gsan_heap_state, a copy for the host (written after the state word) */
  uint32_t site;       /* the malloc call's site (kind GSAN_ACCESS_MALLOC) */
  uint64_t module_id;
  uint64_t size;       /* bytes asked for */
  uint32_t tid[3];     /* the thread that allocated it */
  uint32_t ctaid[3];
  uint64_t pad[2];
} gsan_heap_block;

GSAN_STATIC_ASSERT(sizeof(gsan_heap_block) == 64, "heap block layout");

typedef struct gsan_record {
  uint32_t seq;        /* claim index + 1, written last: the record is valid */
  uint32_t site;       /* index into the module's site table */
  uint64_t module_id;  /* names the site table: __gsan_sites_<id> */
  uint64_t addr;       /* first byte of the failed access */
  uint64_t base;       /* bounds the check used: [base, base+size) */
  uint64_t size;
  uint32_t tid[3];
  uint32_t ctaid[3];
} gsan_record;

GSAN_STATIC_ASSERT(sizeof(gsan_record) == GSAN_RECORD_BYTES, "record layout");

/* Binary mode (gsan run --binary, docs/binary.md): records written by gsan's
 * Sanitizer API patch in SASS-only code, which has no site table. The module
 * id then says what a site table would: bits 63..40 GSAN_BINARY_TAG, 39..36
 * the access kind (enum gsan_access_kind), 35..32 log2 of the width in bytes,
 * 31..29 what the access went to (enum gsan_binary_space), 28..0 the kernel's
 * index in the host's list of launched kernels; the site is the byte offset
 * of the access's instruction from the kernel's first (cuobjdump -sass prints
 * the same offsets). A hashed module id with these top 24 bits is found by
 * its site table first. The record layout is that of instrumented code: the
 * runtime reads both the same way. Shared and local records carry window
 * offsets (the Sanitizer API's addresses for those spaces) and the region
 * the check held them to as base and size; a failed in-kernel free has kind
 * GSAN_ACCESS_FREE, base 0 and its gsan_heap_free_error as size, as
 * instrumented code's. */
#define GSAN_BINARY_TAG 0xb17a5eull
enum gsan_binary_space {
  GSAN_BINARY_GLOBAL = 0, /* gsan's arena */
  GSAN_BINARY_SHARED = 1, /* the block's shared memory, static and dynamic */
  GSAN_BINARY_LOCAL = 2,  /* the thread's stack */
  GSAN_BINARY_HEAP = 3,   /* a device-heap block (in-kernel malloc), base and size the block's */
  GSAN_BINARY_HEAP_FREED = 4 /* a device-heap block already freed */
};
#define GSAN_BINARY_KERNELS (1u << 29)
GSAN_HD static inline uint64_t gsan_binary_module(uint32_t kernel, unsigned kind, unsigned log2_width, unsigned space) {
  return (GSAN_BINARY_TAG << 40) | ((uint64_t)(kind & 15) << 36) | ((uint64_t)(log2_width & 15) << 32) |
         ((uint64_t)(space & 7) << 29) | (kernel & (GSAN_BINARY_KERNELS - 1));
}
GSAN_HD static inline int gsan_binary_is(uint64_t module_id) { return (module_id >> 40) == GSAN_BINARY_TAG; }
GSAN_HD static inline uint32_t gsan_binary_kernel(uint64_t module_id) { return (uint32_t)module_id & (GSAN_BINARY_KERNELS - 1); }
GSAN_HD static inline unsigned gsan_binary_kind(uint64_t module_id) { return (unsigned)(module_id >> 36) & 15; }
GSAN_HD static inline unsigned gsan_binary_width(uint64_t module_id) { return 1u << ((module_id >> 32) & 15); }
GSAN_HD static inline unsigned gsan_binary_space(uint64_t module_id) { return (unsigned)(module_id >> 29) & 7; }

/* Binary mode's record of the device heap (in-kernel malloc and free, seen
 * by the patch's malloc and free callbacks), one per device, in device
 * memory gsan allocates outside its arena: blocks by their start (an
 * open-addressing table in host memory, linear probes, key 0 empty), and a shadow byte per
 * 16-byte granule of each 4 KiB page a block touched (a second table of page
 * numbers; a page's shadow is at its slot's index). A granule's byte:
 * GSAN_BHEAP_LIVE or GSAN_BHEAP_FREED with the count of its bytes in the block
 * (1..16) below, GSAN_BHEAP_START on a block's first granule; 0 is no block.
 * Full tables set full: from then on frees of unknown pointers are not
 * reported (a block may have gone untracked). */
#define GSAN_BHEAP_BLOCKS (1u << 16)
#define GSAN_BHEAP_PAGES (1u << 14)
#define GSAN_BHEAP_PAGE_SHIFT 12
#define GSAN_BHEAP_GRANULE 16
#define GSAN_BHEAP_LIVE 0x20
#define GSAN_BHEAP_FREED 0x40
#define GSAN_BHEAP_START 0x80
typedef struct gsan_bheap_block {
  uint64_t ptr;      /* the block's start; 0: an empty slot */
  uint64_t size;
  uint32_t state;    /* enum gsan_heap_state */
  uint32_t tid[3];   /* the thread that allocated it */
  uint32_t ctaid[3];
  uint32_t pad;
} gsan_bheap_block;
GSAN_STATIC_ASSERT(sizeof(gsan_bheap_block) == 48, "binary heap block layout");
typedef struct gsan_bheap {
  uint64_t lo, hi;   /* the span of every block seen: lo = ~0 before the first */
  uint32_t full;     /* a table ran out of slots */
  uint32_t pad;
  uint64_t blocks;   /* address of gsan_bheap_block[GSAN_BHEAP_BLOCKS], host memory the device reaches
                      * (sanitizerAllocHost): read by the host at exit for the leaks */
  uint64_t pages[GSAN_BHEAP_PAGES];   /* page number + 1; 0: an empty slot */
  unsigned char shadow[GSAN_BHEAP_PAGES][1u << (GSAN_BHEAP_PAGE_SHIFT - 4)];
} gsan_bheap;
/* the first slot to probe for a block's start and for a page number */
GSAN_HD static inline uint32_t gsan_bheap_block_slot(uint64_t ptr) {
  return (uint32_t)((ptr >> 4) * 0x9E3779B97F4A7C15ull >> 40) & (GSAN_BHEAP_BLOCKS - 1);
}
GSAN_HD static inline uint32_t gsan_bheap_page_slot(uint64_t page) {
  return (uint32_t)(page * 0x9E3779B97F4A7C15ull >> 40) & (GSAN_BHEAP_PAGES - 1);
}

/* What the patch's callbacks get as userdata (device memory, one per kernel
 * and device, set with sanitizerSetCallbackData): the arena and ring as
 * __gsan_ctx holds them, where the kernel's code starts, its index, its
 * static shared memory, the local window's top, and the device's record of
 * its heap. */
typedef struct gsan_binary_data {
  unsigned char ctx[GSAN_CTX_BYTES];
  uint64_t func_pc;  /* sanitizerGetFunctionPcAndSize of the kernel */
  uint32_t kernel;   /* index into the host's kernel names */
  uint32_t static_shared; /* CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES */
  uint64_t local_top;     /* the local window's top: offsets at or past it are past every frame */
  uint64_t heap;          /* device address of the device's gsan_bheap, 0: none */
} gsan_binary_data;
GSAN_STATIC_ASSERT(sizeof(gsan_binary_data) == GSAN_CTX_BYTES + 32, "binary data layout");

/* Site table blob (__gsan_sites_<id>, .global .b8[]): header, sites, strings. */
#define GSAN_SITES_MAGIC 0x4e415347u /* "GSAN" little endian */

typedef struct gsan_sites_header {
  uint32_t magic;
  uint32_t version;   /* GSAN_ABI_VERSION */
  uint32_t nsites;
  uint32_t strings;   /* byte offset of the string table from the blob start */
  uint64_t module_id;
} gsan_sites_header;

enum gsan_access_kind {
  GSAN_ACCESS_READ = 1,
  GSAN_ACCESS_WRITE = 2,
  GSAN_ACCESS_ATOMIC = 3,    /* read-modify-write */
  GSAN_ACCESS_COPY_SRC = 4,  /* cp.async source */
  GSAN_ACCESS_COPY_DST = 5,  /* cp.async destination */
  GSAN_ACCESS_BARRIER = 6,   /* mbarrier object */
  GSAN_ACCESS_MALLOC = 7,    /* an in-kernel malloc call (ABI 3): names a heap block's origin */
  GSAN_ACCESS_FREE = 8       /* an in-kernel free call: its failures (gsan_heap_free_error) */
};

enum gsan_space {
  GSAN_SPACE_GLOBAL = 1,
  GSAN_SPACE_SHARED = 2,
  GSAN_SPACE_LOCAL = 3,
  GSAN_SPACE_GENERIC = 4,
  GSAN_SPACE_CONST = 5
};

/* What bounded the check: the runtime names the error kind from it. */
enum gsan_root {
  GSAN_ROOT_ARENA = 0,   /* an allocation found in the arena */
  GSAN_ROOT_VARIABLE = 1, /* a variable: root_space and root name say which */
  GSAN_ROOT_SCOPE = 2     /* use-after-scope: base is the running function's frame
                             (its lowest local address); a local address below it
                             is in a frame that has returned */
};

typedef struct gsan_site {
  uint32_t func;       /* string offset: mangled function name */
  uint32_t file;       /* string offset: source file, or 0 = unknown */
  uint32_t line;       /* source line from .loc, 0 = unknown */
  uint32_t ptx_line;   /* line in the instrumenter's input */
  uint32_t col;        /* source column from .loc */
  uint32_t root_name;  /* string offset: the variable (GSAN_ROOT_VARIABLE), else 0 */
  uint32_t call_file;  /* inlined code: string offset of the file it was inlined into, else 0 */
  uint32_t call_line;  /* and the line there (the .loc's inlined_at) */
  uint16_t width;      /* bytes; 0 = given by an operand at run time */
  uint8_t kind;        /* enum gsan_access_kind */
  uint8_t space;       /* enum gsan_space of the access */
  uint8_t root;        /* enum gsan_root */
  uint8_t root_space;  /* enum gsan_space of the variable; GSAN_SPACE_GLOBAL for the arena */
  uint8_t pad[2];
} gsan_site;

GSAN_STATIC_ASSERT(sizeof(gsan_site) == 40, "site layout");

#endif
