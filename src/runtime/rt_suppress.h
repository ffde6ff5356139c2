/* Suppressions, as in AddressSanitizer: a file of `kind:pattern` lines
 * (GSAN_OPTIONS suppressions=FILE) and a few built-in ones for libraries
 * that keep device memory on purpose until the process ends (PyTorch's
 * caching allocator, cuBLAS and cuDNN handles). A report is suppressed when
 * its kind matches (or the line says `*`) and the pattern matches one of its
 * names: for leaks, the frames of the allocation stack; for device errors,
 * the kernel and the source file; for host errors, the frames of the call.
 * A pattern matches anywhere in a name, as an fnmatch(3) pattern: `*`, `?`
 * and `[...]` are wildcards, a backslash is an ordinary character. A rule
 * may name any kind of rt_report_kinds.h's list (`gsan help reports`). */
#ifndef GSAN_RT_SUPPRESS_H
#define GSAN_RT_SUPPRESS_H

#include "rt_report_kinds.h"

#include <stddef.h>

#define RT_SUPPRESS_MAX 256
#define RT_SUPPRESS_ANY (-1) /* the rule's kind is `*` */

typedef struct rt_suppression {
  int kind;          /* an rt_report_kind, or RT_SUPPRESS_ANY */
  char pattern[208]; /* glob, matched as *pattern* */
  unsigned long hits; /* reports it kept quiet, listed at exit with verbosity=1 */
} rt_suppression;

typedef struct rt_suppress {
  rt_suppression s[RT_SUPPRESS_MAX];
  int n;
} rt_suppress;

/* The built-in suppressions (when builtin), then the file's (path may be
 * "" for none). -1 with a one-line message naming the file and line on a
 * bad file; the rules read so far stay. */
int rt_suppress_load(rt_suppress *sp, int builtin, const char *path, char *err, size_t errlen);

/* The suppression matching a report of kind whose names are names[0..n)
 * and frames[0..nframes) (a stack's, or NULL), or NULL; its hit count goes
 * up. */
const rt_suppression *rt_suppress_match(rt_suppress *sp, rt_report_kind kind, const char *const *names, int n,
                                        const char *const *frames, int nframes);
/* a rule's kind as it was written: a kind's name, or "*" */
const char *rt_suppress_kind(const rt_suppression *s);

#endif
