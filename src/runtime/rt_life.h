/* The process's life under gsan: start, the monitor thread, the last words
 * and the exit (docs/runtime.md "Layers"); the top of the core. */
#ifndef GSAN_RT_LIFE_H
#define GSAN_RT_LIFE_H

#include "rt_events.h"

/* Called with the driver's cuGetProcAddress the first time the program asks
 * for it (rt_interpose.c): installs the listeners, reads the options and
 * fetches the driver's functions, once; then the listeners' start. */
void rt_life_init(void *get_proc, const rt_listener *const *listeners);

/* What a run says before it ends, whichever way it ends (exit, _exit, a
 * fatal signal): the device records still in the rings, the records a full
 * ring could only count, and the repeat counts per site. Once per process. */
void rt_life_last_words(void);

/* the life's own listener: the first device ready starts the monitor */
extern const rt_listener rt_life_listener;

#endif
