/* The arena: device memory allocation with exact per-allocation bounds that
 * instrumented code finds from any interior pointer (docs/abi.md, "The arena
 * lookup"). One reservation split into one region per power-of-two size
 * class; a slot table per class holds each slot's exact size (0 = not live).
 * Small classes pack slots into shared granules; large ones map only the
 * granules their size needs, leaving the rest of the slot as an unmapped
 * guard. Slots are handed out in order from a random start and not reused
 * until a class wraps, so a stale pointer finds a freed slot; with a
 * quarantine (rt_arena_params.quarantine), slots freed in stream order
 * (retired, then released) keep their memory mapped and are reused oldest
 * first once it is half full, which costs no VMM call (a stale pointer into
 * a reused slot then passes, as under ASan). One more region below the
 * arena and one above it are reserved and never mapped (rt_arena_guard): an
 * address that runs off either end is no memory, for code that checks by the
 * address alone (binary mode) as for the hardware. */
#ifndef GSAN_RT_ARENA_H
#define GSAN_RT_ARENA_H

#include "rt_vmm.h"

#include <stdint.h>

typedef enum rt_status {
  RT_OK = 0,
  RT_OUT_OF_MEMORY,   /* class exhausted, or the VMM could not back it */
  RT_INVALID_VALUE,   /* size 0, like the driver's cuMemAlloc */
  RT_NOT_OURS,        /* a pointer outside the arena */
  RT_DOUBLE_FREE,     /* the slot was freed already */
  RT_INVALID_FREE,    /* interior pointer, or a slot never allocated */
  RT_VMM_ERROR,       /* the VMM failed (rt_arena.last_error holds its code) */
  RT_KEPT             /* a kept slot (rt_arena_keep): the free changed nothing */
} rt_status;

const char *rt_status_name(rt_status s);

typedef struct rt_arena_params {
  uint64_t hint;        /* preferred base address */
  unsigned region_shift;/* log2 bytes per class region */
  unsigned min_shift;   /* log2 bytes of the smallest slot */
  unsigned classes;     /* region_shift - min_shift + 1 at most */
  int device;
  uint64_t seed;        /* start slots; 0 = from the OS */
  /* bytes of released slots whose memory stays mapped for reuse: a class
   * takes its oldest such slot (no VMM call) when at least half of this is
   * held; past it, a class's oldest are unmapped. 0: released slots are
   * unmapped at once, as rt_arena_free's always are */
  uint64_t quarantine;
} rt_arena_params;

/* 16 TiB at (device + 1) * 0x100000000000: 32 classes from 256 B to
 * 512 GiB; each device's arena at its own addresses */
rt_arena_params rt_arena_default_params(int device);

/* RT_SLOT_DEVHEAP: set aside for the device heap (rt_arena_reserve_run); the
 * device's own state words say which of its blocks live */
enum rt_slot_state { RT_SLOT_NEVER = 0, RT_SLOT_LIVE = 1, RT_SLOT_FREED = 2, RT_SLOT_DEVHEAP = 3 };

typedef struct rt_alloc_info {
  uint64_t base;        /* slot base = the allocation's address */
  uint64_t size;        /* exact size requested */
  uint64_t slot_size;
  unsigned cls;
  uint64_t slot;
  int state;            /* enum rt_slot_state */
  uint64_t seq;         /* allocation number, for reports */
  int kept;             /* rt_arena_keep: live for the process */
} rt_alloc_info;

typedef struct rt_arena rt_arena;

rt_status rt_arena_create(const rt_vmm *vmm, const rt_arena_params *p, rt_arena **out);
void rt_arena_destroy(rt_arena *a);

rt_status rt_arena_alloc(rt_arena *a, uint64_t size, uint64_t *ptr);
/* ptr must be an allocation's base; info (may be NULL) describes the slot */
rt_status rt_arena_free(rt_arena *a, uint64_t ptr, rt_alloc_info *info);
/* A free in two steps, for frees in stream order (rt_retire.h): retire
 * makes the slot freed on the host (a second free is a double free) and
 * gives its table entry's device address in *entry, which the caller
 * writes 0 to in stream order (the arena writes nothing); the memory stays
 * mapped and the slot unused until rt_arena_release, once the stream has
 * passed the free. The errors of rt_arena_free. */
rt_status rt_arena_retire(rt_arena *a, uint64_t ptr, rt_alloc_info *info, uint64_t *entry);
/* RT_INVALID_VALUE when ptr is not a retired slot's base */
rt_status rt_arena_release(rt_arena *a, uint64_t ptr);
/* Keeps the live allocation at ptr for the process: later frees return
 * RT_KEPT and leave it live (a CUDA graph's memory, which the graph uses
 * again at every launch). The errors of rt_arena_free otherwise. */
rt_status rt_arena_keep(rt_arena *a, uint64_t ptr);
/* Sets aside n consecutive slots of class k, backed by memory, their table
 * entries 0 (RT_SLOT_DEVHEAP: host frees of them are invalid, they are no
 * leaks): the device heap's run of that class. *first: the first slot's
 * address. RT_OUT_OF_MEMORY when the class has no n free slots in a row at
 * its next slot. */
rt_status rt_arena_reserve_run(rt_arena *a, unsigned k, uint64_t n, uint64_t *first);
/* log2 of the slot size of class k */
unsigned rt_arena_class_shift(const rt_arena *a, unsigned k);
unsigned rt_arena_classes(const rt_arena *a);
/* The slot any arena pointer falls in (also interior and freed ones);
 * RT_NOT_OURS outside the arena. */
rt_status rt_arena_find(rt_arena *a, uint64_t ptr, rt_alloc_info *info);
/* The live allocation nearest to addr in the two slots beside addr's own
 * (of its class): what an access by address alone (binary mode) that lands
 * in no allocation most likely overran, the way ASan names the chunk beside
 * a redzone. RT_NOT_OURS when neither holds one. */
rt_status rt_arena_nearest(rt_arena *a, uint64_t addr, rt_alloc_info *info);
/* 1 if ptr falls in the arena's reservation (no lock: fixed once created) */
int rt_arena_holds(const rt_arena *a, uint64_t ptr);
/* 1 if ptr falls in the unmapped region below or above the arena */
int rt_arena_guard(const rt_arena *a, uint64_t ptr);
/* What the device lookup of docs/abi.md computes for ptr, without reading
 * the entry: 1 when ptr lies in the arena's reservation, with *base its
 * slot's base (ptr & -slot size) and *entry the device address of its slot
 * table entry; 0 outside. No lock: only the fixed layout is read, so a
 * launch may call it from any thread (rt_launch.c). */
int rt_arena_entry(const rt_arena *a, uint64_t ptr, uint64_t *base, uint64_t *entry);
/* 1 if [ptr, ptr+len) lies inside one live allocation */
int rt_arena_range_ok(rt_arena *a, uint64_t ptr, uint64_t len);

/* Calls fn for every live allocation (for the leak check at exit). */
void rt_arena_foreach_live(rt_arena *a, void (*fn)(void *arg, const rt_alloc_info *info), void *arg);

/* The __gsan_ctx fields the arena owns, as the 64-byte blob of abi.h (the
 * ring fields are left for the caller). */
void rt_arena_ctx(const rt_arena *a, unsigned char ctx[64]);

typedef struct rt_arena_stats {
  uint64_t live_allocs, live_bytes;
  uint64_t mapped_data_bytes;   /* physical memory behind allocations */
  uint64_t spare_data_bytes;    /* emptied granules kept to back new ones (not mapped) */
  uint64_t held_bytes;          /* freed slots' memory kept mapped: quarantine and retired */
  uint64_t reused;              /* allocations that took a quarantined slot */
  uint64_t data_maps;           /* VMM maps of allocations' memory (a large slot's, a small class's granule) */
  uint64_t mapped_table_bytes;  /* physical memory behind slot tables */
  uint64_t allocs, frees;
  /* high-water marks: live allocations, the bytes they asked for, and the
   * physical memory behind them (its excess over the bytes asked for is
   * the per-allocation overhead) */
  uint64_t peak_live_allocs, peak_live_bytes, peak_mapped_data_bytes;
} rt_arena_stats;
void rt_arena_get_stats(rt_arena *a, rt_arena_stats *s);
int rt_arena_last_error(const rt_arena *a);
/* the allocation number (rt_alloc_info.seq) the latest allocation got */
uint64_t rt_arena_seq(const rt_arena *a);

#endif
