/* libgsan's dlsym and dlvsym (docs/runtime.md "Interposition").
 * rt_dlsym_entry.c holds the exported entry points: a name gsan must see
 * resolved goes to rt_interpose.c, every other one straight to glibc's own
 * function, entered so that glibc sees the caller's return address and
 * resolves RTLD_NEXT and RTLD_DEFAULT for the caller, as without libgsan.
 * rt_dlsym_real.c finds glibc's functions; rt_dlsym_next.c does RTLD_NEXT
 * for the caller for the names gsan answers itself. */
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

/* rt_dlsym_next.c: dlsym(RTLD_NEXT, name), or dlvsym with version, as
 * called from caller (a return address) */
void *rt_next_sym(const void *caller, const char *name, const char *version);

/* rt_interpose.c: whether gsan answers dlsym for name itself (the driver
 * names it hooks), and its answers, given the caller's return address */
int rt_interpose_sees(const char *name);
void *rt_interpose_dlsym(void *handle, const char *name, const void *caller);
void *rt_interpose_dlvsym(void *handle, const char *name, const char *version, const void *caller);

#endif
