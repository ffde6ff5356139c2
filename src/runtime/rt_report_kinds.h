/* Every kind of report gsan prints, in one list, as compiler-rt's
 * ASAN_FOR_EACH_ERROR_KIND: X(ID, "name", "what it means"). The name is what
 * the report's first line and SUMMARY say, the JSON object's "kind", and
 * what a suppression rule names; `gsan help reports` prints the list. A
 * kind is added here and nowhere else: the printers, the suppressions
 * parser and the help take their names from this table.
 *
 * use-after-free comes from two producers: a device access (a failed
 * check's record) and a host copy or set gsan refused. */
#ifndef GSAN_RT_REPORT_KINDS_H
#define GSAN_RT_REPORT_KINDS_H

#include <stddef.h>

#define RT_FOR_EACH_REPORT_KIND(X)                                                                                   \
  /* device accesses: a failed check's record (instrumented code or binary mode) */                                  \
  X(GLOBAL_BUFFER_OVERFLOW, "global-buffer-overflow",                                                                \
    "a device access outside its allocation (cudaMalloc and the like) or global variable")                           \
  X(SHARED_BUFFER_OVERFLOW, "shared-buffer-overflow", "a device access outside its __shared__ variable")             \
  X(LOCAL_BUFFER_OVERFLOW, "local-buffer-overflow", "a device access outside its local variable")                    \
  X(USE_AFTER_FREE, "use-after-free", "a device access, or a host copy or set, to an allocation already freed")      \
  X(USE_AFTER_SCOPE, "use-after-scope", "a device access to a local variable of a function that has returned")       \
  X(WILD_POINTER, "wild-pointer", "a device access to arena memory that is in no allocation")                        \
  X(DEVICE_HEAP_BUFFER_OVERFLOW, "device-heap-buffer-overflow",                                                      \
    "a device access outside its in-kernel malloc block")                                                            \
  X(DEVICE_HEAP_USE_AFTER_FREE, "device-heap-use-after-free",                                                        \
    "a device access to an in-kernel malloc block already freed")                                                    \
  X(DEVICE_HEAP_DOUBLE_FREE, "device-heap-double-free", "an in-kernel free of a block already freed")                \
  X(DEVICE_HEAP_INVALID_FREE, "device-heap-invalid-free", "an in-kernel free of a pointer that is no block's start") \
  /* host API calls, refused before they reach the driver */                                                         \
  X(DOUBLE_FREE, "double-free", "a host free (cudaFree, cuMemFree, ...) of an allocation already freed")             \
  X(INVALID_FREE, "invalid-free", "a host free of a pointer that is no allocation's start")                          \
  X(MEMCPY_PARAM_OVERFLOW, "memcpy-param-overflow", "a host copy whose device range leaves its allocation")          \
  X(MEMSET_PARAM_OVERFLOW, "memset-param-overflow", "a host memset whose device range leaves its allocation")        \
  /* code gsan did not instrument (canaries and guard gaps) */                                                       \
  X(GLOBAL_CANARY_OVERFLOW, "global-canary-overflow",                                                                \
    "a write past an allocation's end by code gsan did not instrument, found by its canary")                         \
  X(ILLEGAL_ADDRESS, "illegal-address",                                                                              \
    "a kernel fault (cudaErrorIllegalAddress) that a synchronising call returned")                                   \
  /* at exit */                                                                                                      \
  X(LEAK, "leak", "device allocations still live at exit")

typedef enum rt_report_kind {
#define RT_REPORT_KIND_ENUM(id, name, about) RT_KIND_##id,
  RT_FOR_EACH_REPORT_KIND(RT_REPORT_KIND_ENUM)
#undef RT_REPORT_KIND_ENUM
  RT_REPORT_KINDS /* how many */
} rt_report_kind;

/* The kind's name and its one-line description; "?" for no kind. */
const char *rt_report_kind_name(rt_report_kind kind);
const char *rt_report_kind_about(rt_report_kind kind);
/* The kind named s[0..len), or -1. */
int rt_report_kind_lookup(const char *s, size_t len);

#endif
