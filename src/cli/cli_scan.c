/* gsan scan: the static analyzer. It is its own program, gsan-scan, beside the
 * gsan executable: it links libclang and Z3, which gsan itself must not need
 * (gsan runs on GPU machines that have neither). This execs it with the same
 * arguments; its exit status is the command's. */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cli_scan(int argc, char **argv) {
  char self[PATH_MAX], path[PATH_MAX + 16];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) {
    fprintf(stderr, "gsan scan: cannot find the gsan executable: %s\n", strerror(errno));
    return 2;
  }
  self[sl] = 0;
  *strrchr(self, '/') = 0;
  snprintf(path, sizeof path, "%s/gsan-scan", self);
  argv[0] = path;
  (void)argc;
  execv(path, argv);
  fprintf(stderr, "gsan scan: the analyzer is not installed: cannot run '%s': %s (build it with make; it needs libclang-dev and libz3-dev)\n",
          path, strerror(errno));
  return 2;
}
