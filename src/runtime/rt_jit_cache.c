/* The on-disk cache of instrumented PTX (rt_jit.h). One file per input,
 * DIR/<key>.ptx: a header line "// gsan jit cache entry <key> <bytes> <hash
 * of the bytes>", then the instrumented PTX. The header tells a truncated or
 * damaged entry (a disk error, a full disk, an edit) from a good one; the
 * caller instruments such an input again and overwrites it. Entries are
 * written to a temporary file and renamed into place, so concurrent
 * processes never read half of one. What is in the directory is loaded as
 * code: it is created private, and one that fails gsan's rule for such
 * directories (rt_trust.h) is not used. */
#include "rt_jit.h"

#include "rt_trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t rt_fnv64(uint64_t h, const void *p, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ull;
  return h;
}

char *rt_jit_read_file(const char *path, size_t *len) {
  /* O_NONBLOCK: opening a FIFO must not wait for a writer */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return NULL;
  struct stat st;
  char *p = NULL;
  /* 1 GiB: more than any module; a device or a pipe (no size) is not read */
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (1 << 30) && (p = malloc((size_t)st.st_size + 1))) {
    size_t n = 0;
    ssize_t got = 1;
    while (n < (size_t)st.st_size && (got = read(fd, p + n, (size_t)st.st_size - n)) > 0) n += (size_t)got;
    p[n] = 0;
    *len = n;
    if (n != (size_t)st.st_size) { /* a read error, or the file shrank: not the whole of it */
      free(p);
      p = NULL;
    }
  }
  close(fd);
  return p;
}

int rt_jit_cache_dir(const char *option, char *out, size_t n) {
  char root[PATH_MAX];
  int w;
  if (option && *option) w = snprintf(out, n, "%s", option);
  else if (rt_trust_cache_root(root, sizeof root) == 0) w = snprintf(out, n, "%s/jit", root);
  else return -1;
  return w > 0 && (size_t)w < n ? 0 : -1;
}

static void entry_path(char *out, size_t n, const char *dir, uint64_t key) {
  snprintf(out, n, "%s/%016llx.ptx", dir, (unsigned long long)key);
}

char *rt_jit_cache_get(const char *dir, uint64_t key, int *corrupt) {
  char path[PATH_MAX + 32];
  entry_path(path, sizeof path, dir, key);
  *corrupt = 0;
  size_t n;
  char *data = rt_jit_read_file(path, &n);
  if (!data) return NULL;
  unsigned long long k, h;
  size_t len;
  int hdr = 0;
  if (sscanf(data, "// gsan jit cache entry %16llx %zu %16llx%n", &k, &len, &h, &hdr) != 3 || !hdr ||
      data[hdr] != '\n' || k != key || n - (size_t)hdr - 1 != len || rt_fnv64(RT_FNV_SEED, data + hdr + 1, len) != h) {
    *corrupt = 1;
    free(data);
    return NULL;
  }
  memmove(data, data + hdr + 1, len + 1); /* with the NUL rt_jit_read_file put after it */
  return data;
}

int rt_jit_cache_put(const char *dir, uint64_t key, const char *ptx, size_t len, const char **why) {
  char path[PATH_MAX + 32], tmp[PATH_MAX + 32];
  entry_path(path, sizeof path, dir, key);
  snprintf(tmp, sizeof tmp, "%s/.%016llx.XXXXXX", dir, (unsigned long long)key);
  int fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    *why = strerror(errno);
    return -1;
  }
  FILE *f = fdopen(fd, "w");
  int ok = f && fprintf(f, "// gsan jit cache entry %016llx %zu %016llx\n", (unsigned long long)key, len,
                        (unsigned long long)rt_fnv64(RT_FNV_SEED, ptx, len)) > 0 &&
           fwrite(ptx, 1, len, f) == len;
  if (!f) close(fd);
  else if (fclose(f) != 0) ok = 0;
  if (ok && rename(tmp, path) == 0) return 0;
  *why = strerror(errno ? errno : EIO);
  unlink(tmp);
  return -1;
}
