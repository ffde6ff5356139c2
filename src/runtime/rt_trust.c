/* The rule for what gsan runs or loads code from (rt_trust.h,
 * docs/security.md). Another user who can write to such a directory, or
 * replace it through one above it, could have gsan run their code as this
 * user: the directory is refused with the reason, never used, and gsan falls
 * back into no shared directory. */
#include "rt_trust.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(rt_trust_err *err, const char *path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  snprintf(err->path, sizeof err->path, "%s", path);
  vsnprintf(err->why, sizeof err->why, fmt, ap);
  va_end(ap);
  return -1;
}

/* root can change anything anyway */
static int owner_ok(uid_t uid) { return uid == geteuid() || uid == 0; }

/* path itself (a directory gsan runs code from, or a library): owned by
 * this user or root, and neither its group nor others can write to it */
static int check_own(rt_trust_err *err, const char *path, const struct stat *st) {
  if (!owner_ok(st->st_uid))
    return fail(err, path, "owned by another user (uid %u); gsan would run code from it", (unsigned)st->st_uid);
  if (st->st_mode & S_IWOTH) return fail(err, path, "writable by other users; gsan would run code from it");
  if (st->st_mode & S_IWGRP) return fail(err, path, "writable by its group; gsan would run code from it");
  return 0;
}

/* Each directory above real (resolved, absolute), from /, and real itself
 * when self: owned by root or this user (another owner could rename what is
 * in it), and one that others or its group can write to sticky too, or they
 * could rename what gsan checked away and put their own in its place. */
static int check_parents(const char *real, int self, rt_trust_err *err) {
  size_t n = strlen(real);
  char p[PATH_MAX];
  struct stat st;
  for (size_t i = 0; i <= n; i++) {
    if (i < n ? real[i] != '/' : !self) continue;
    snprintf(p, sizeof p, "%.*s", i ? (int)i : 1, real);
    if (lstat(p, &st) != 0) return fail(err, p, "%s", strerror(errno));
    if (!S_ISDIR(st.st_mode)) return fail(err, p, "not a directory");
    if (!owner_ok(st.st_uid))
      return fail(err, p, "owned by another user (uid %u); what gsan runs code from below it could be replaced",
                  (unsigned)st.st_uid);
    if (!(st.st_mode & (S_IWOTH | S_IWGRP)) || (st.st_mode & S_ISVTX)) continue;
    return fail(err, p, "writable by %s and not sticky; what gsan runs code from below it could be replaced",
                st.st_mode & S_IWOTH ? "other users" : "its group");
  }
  return 0;
}

int rt_trust_dir(const char *dir, char *real, rt_trust_err *err) {
  char r[PATH_MAX];
  struct stat st;
  if (!realpath(dir, r)) return fail(err, dir, "%s", strerror(errno));
  if (check_parents(r, 0, err) != 0) return -1;
  if (lstat(r, &st) != 0) return fail(err, r, "%s", strerror(errno));
  if (!S_ISDIR(st.st_mode)) return fail(err, r, "not a directory");
  if (check_own(err, r, &st) != 0) return -1;
  if (real) memcpy(real, r, strlen(r) + 1);
  return 0;
}

int rt_trust_make_dir(const char *dir, char *real, rt_trust_err *err) {
  char p[PATH_MAX], r[PATH_MAX];
  struct stat st;
  int checked = 0;
  if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return fail(err, dir, "the path is too long");
  /* each missing directory on the way, then dir itself; before the first
   * is made, the directory it goes in and each one above it are held to
   * the rule, so nothing is made where another user could replace it */
  for (char *s = p + 1;; s++) {
    if (*s && *s != '/') continue;
    char c = *s;
    *s = 0;
    if (stat(p, &st) != 0) {
      if (errno != ENOENT) return fail(err, p, "%s", strerror(errno));
      if (!checked) {
        char up[PATH_MAX];
        const char *slash = strrchr(p, '/');
        snprintf(up, sizeof up, "%.*s", slash ? (slash == p ? 1 : (int)(slash - p)) : 1, slash ? p : ".");
        if (!realpath(up, r)) return fail(err, up, "%s", strerror(errno));
        if (check_parents(r, 1, err) != 0) return -1;
        checked = 1;
      }
      if (mkdir(p, 0700) != 0 && errno != EEXIST) return fail(err, p, "%s", strerror(errno));
    }
    *s = c;
    if (!c) break;
  }
  return rt_trust_dir(p, real, err);
}

int rt_trust_file(const char *file, char *real, rt_trust_err *err) {
  char r[PATH_MAX], d[PATH_MAX];
  struct stat st;
  if (!realpath(file, r)) return fail(err, file, "%s", strerror(errno));
  const char *slash = strrchr(r, '/');
  snprintf(d, sizeof d, "%.*s", slash == r ? 1 : (int)(slash - r), r);
  if (rt_trust_dir(d, NULL, err) != 0) return -1;
  if (lstat(r, &st) != 0) return fail(err, r, "%s", strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail(err, r, "not a regular file");
  if (check_own(err, r, &st) != 0) return -1;
  if (real) memcpy(real, r, strlen(r) + 1);
  return 0;
}

int rt_trust_cache_root(char *out, size_t n) {
  const char *gsan = getenv("GSAN_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int w;
  if (gsan && *gsan) w = snprintf(out, n, "%s", gsan);
  else if (xdg && *xdg) w = snprintf(out, n, "%s/gsan", xdg);
  else if (home && *home) w = snprintf(out, n, "%s/.cache/gsan", home);
  else return -1;
  return w > 0 && (size_t)w < n ? 0 : -1;
}

void rt_trust_say(const char *who, const rt_trust_err *err) { fprintf(stderr, "%s: %s: %s\n", who, err->path, err->why); }

FILE *rt_trust_open_log(const char *path, const char **why) {
  char dir[PATH_MAX];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1, slash ? path : ".");
  struct stat st;
  /* O_NONBLOCK: a FIFO planted there must not hold the program; 0600: the
   * reports are not for the others who can list the directory */
  int shared = stat(dir, &st) == 0 && (st.st_mode & (S_IWOTH | S_IWGRP));
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | (shared ? O_NOFOLLOW | O_NONBLOCK : 0),
                shared ? 0600 : 0666);
  if (fd < 0) {
    *why = shared && errno == ELOOP ? "a symbolic link in a directory other users can write to; not followed"
                                    : strerror(errno);
    return NULL;
  }
  /* there, only a file of this user's own, with no other name (a hard link
   * planted there would have gsan write into the file it names) */
  if (shared) {
    const char *bad = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) bad = "not a regular file, in a directory other users can write to";
    else if (st.st_uid != geteuid()) bad = "owned by another user, in a directory other users can write to";
    else if (st.st_nlink != 1) bad = "a file with other names (hard links), in a directory other users can write to";
    else if (fcntl(fd, F_SETFL, O_APPEND) != 0) bad = strerror(errno);
    if (bad) {
      close(fd);
      *why = bad;
      return NULL;
    }
  }
  FILE *f = fdopen(fd, "a");
  if (!f) {
    *why = strerror(errno);
    close(fd);
  }
  return f;
}
