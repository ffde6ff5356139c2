/* libgsan's dlsym and dlvsym (DESIGN.md §3, docs/runtime.md "Interposition"),
 * defined in rt_interpose.c; rt_dlsym_real.c finds glibc's. */
#ifndef GSAN_RT_DLSYM_H
#define GSAN_RT_DLSYM_H

typedef void *(*rt_dlsym_fn)(void *handle, const char *name);
typedef void *(*rt_dlvsym_fn)(void *handle, const char *name, const char *version);

/* rt_dlsym_real.c: glibc's dlsym and dlvsym (NULL if libc's symbol table
 * could not be read), and calls to them from libgsan's place */
rt_dlsym_fn rt_libc_dlsym(void);
rt_dlvsym_fn rt_libc_dlvsym(void);
void *rt_real_dlsym(void *handle, const char *name);
void *rt_real_dlvsym(void *handle, const char *name, const char *version);

#endif
