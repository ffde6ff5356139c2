/* The one rule for what gsan runs or loads code from (docs/security.md),
 * shared by the gsan command (the nvcc wrapper directory, the Triton,
 * Inductor and CuPy caches gsan run sets, GSAN_LIB, sanitizer_lib) and
 * libgsan (the JIT cache, sanitizer_lib, log_path):
 * - the directory (or a library's directory, and the library) is owned by
 *   this user (or root) and neither its group nor others can write to it;
 * - each directory above it is owned by root or this user, and either
 *   writable by neither its group nor others, or sticky (/tmp);
 * - the checks are made on the path with its symbolic links resolved, and
 *   the caller goes on with that path, so a link swapped afterwards changes
 *   nothing;
 * - what gsan creates there is created 0700. */
#ifndef GSAN_RT_TRUST_H
#define GSAN_RT_TRUST_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

/* Why a path was refused: the path that failed (the directory, one above
 * it, or the file) and the reason, to be said as "<path>: <why>". */
typedef struct rt_trust_err {
  char path[PATH_MAX];
  char why[160];
} rt_trust_err;

/* dir, an existing directory, against the rule. real (PATH_MAX bytes, or
 * NULL) gets its resolved path. 0, or -1 with err filled. */
int rt_trust_dir(const char *dir, char *real, rt_trust_err *err);

/* The same, dir and each missing directory above it created 0700 first,
 * once the directory they go in and each above it pass the rule. */
int rt_trust_make_dir(const char *dir, char *real, rt_trust_err *err);

/* A library gsan loads: a regular file that neither its group nor others
 * can write to, owned by this user or root, in a directory that passes
 * rt_trust_dir. */
int rt_trust_file(const char *file, char *real, rt_trust_err *err);

/* Where gsan's caches live: $GSAN_CACHE, else $XDG_CACHE_HOME/gsan, else
 * $HOME/.cache/gsan. -1 when none of them is set (or the path is too long):
 * there is no shared fallback. */
int rt_trust_cache_root(char *out, size_t n);

/* err said on stderr, as one line "<who>: <path>: <why>" */
void rt_trust_say(const char *who, const rt_trust_err *err);

/* log_path opened for appending. In a directory others (or its group) can
 * write to, a symbolic link at its last component is not followed, only a
 * regular file of this user's with one name is taken, and a new one is made
 * 0600. NULL with the reason in why. */
FILE *rt_trust_open_log(const char *path, const char **why);

#endif
