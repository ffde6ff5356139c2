/* The one table of listeners (rt_events.h), in the order each event is
 * heard: module tracking fills a new device's library copies before the
 * first device starts the monitor (the process's life, last); a reset
 * releases the stream-ordered frees, forgets the canaries, then the device
 * heap, then the launch-bounds copies; at exit the pending frees are
 * released (their canaries checked) before the canaries of live memory. rt_interpose.c hands it to rt_life_init: the layers below never
 * name the subsystems. */
#include "rt_binary.h"
#include "rt_canary.h"
#include "rt_events.h"
#include "rt_heap.h"
#include "rt_hooks.h"
#include "rt_launch.h"
#include "rt_life.h"
#include "rt_retire.h"

#include <stddef.h>

const rt_listener *const rt_listeners[] = {
    &rt_binary_listener, &rt_hooks_module_listener, &rt_retire_listener, &rt_canary_listener,
    &rt_heap_listener,   &rt_launch_listener,       &rt_life_listener,   NULL,
};
