/* scan_cdb.c: compile_commands.json, read through libclang's compilation
 * database. The recorded command may be nvcc's or a host compiler's; only the
 * flags that shape the source as the parser sees it are kept (scan_flags_front in
 * scan_flags.c: include paths, macros, forced includes, the language
 * standard), with relative paths made absolute against the command's
 * directory. */
#include "scan_front.h"

#include <limits.h>
#include <stdlib.h>

static const char *absolute(const char *dir, const char *p) {
  if (p[0] == '/' || !dir) return scan_util_strdup(p);
  return scan_util_fmt("%s/%s", dir, p);
}

static void keep_flags(CXCompileCommand cmd, str_vec *flags) {
  unsigned n = clang_CompileCommand_getNumArgs(cmd);
  CXString ds = clang_CompileCommand_getDirectory(cmd);
  const char *dir = scan_util_strdup(clang_getCString(ds));
  clang_disposeString(ds);
  str_vec a = {0};
  for (unsigned i = 0; i < n; i++) {
    CXString s = clang_CompileCommand_getArg(cmd, i);
    VEC_PUSH(a, scan_util_strdup(clang_getCString(s)));
    clang_disposeString(s);
  }
  if (!a.n) return;
  /* nvcc's flags are noted as they are dropped; a host compiler's are the
     build's business (-c, -o, -O2 and warnings in every entry) */
  const char *cc = strrchr(a.v[0], '/');
  cc = cc ? cc + 1 : a.v[0];
  scan_flags_front(a.v + 1, (int)a.n - 1, dir, strstr(cc, "nvcc") ? 2 : 0, flags);
}

static CXCompilationDatabase open_db(const char *dir, const char **err) {
  CXCompilationDatabase_Error e = CXCompilationDatabase_NoError;
  CXCompilationDatabase db = clang_CompilationDatabase_fromDirectory(dir, &e);
  if (e != CXCompilationDatabase_NoError || !db) {
    *err = scan_util_fmt("cannot read '%s/compile_commands.json'", dir);
    return NULL;
  }
  return db;
}

int scan_cdb_flags(const char *dir, const char *file, str_vec *flags, const char **err) {
  CXCompilationDatabase db = open_db(dir, err);
  if (!db) return -1;
  char real[PATH_MAX];
  const char *path = realpath(file, real) ? real : file;
  CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, path);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  if (n) keep_flags(clang_CompileCommands_getCommand(cmds, 0), flags);
  else *err = scan_util_fmt("'%s' has no entry in '%s/compile_commands.json'", file, dir);
  if (cmds) clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(db);
  return n ? 0 : -1;
}

int scan_cdb_files(const char *dir, str_vec *files, const char **err) {
  CXCompilationDatabase db = open_db(dir, err);
  if (!db) return -1;
  CXCompileCommands cmds = clang_CompilationDatabase_getAllCompileCommands(db);
  unsigned n = cmds ? clang_CompileCommands_getSize(cmds) : 0;
  for (unsigned i = 0; i < n; i++) {
    CXCompileCommand c = clang_CompileCommands_getCommand(cmds, i);
    CXString fs = clang_CompileCommand_getFilename(c);
    CXString ds = clang_CompileCommand_getDirectory(c);
    const char *f = clang_getCString(fs);
    size_t len = strlen(f);
    if (len > 3 && !strcmp(f + len - 3, ".cu")) VEC_PUSH(*files, absolute(clang_getCString(ds), f));
    clang_disposeString(fs);
    clang_disposeString(ds);
  }
  if (cmds) clang_CompileCommands_dispose(cmds);
  clang_CompilationDatabase_dispose(db);
  return 0;
}
