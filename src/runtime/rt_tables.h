/* The site tables of the modules loaded so far (rt_sites.h): how a device
 * record's module id and site become a source line. Kept for the process:
 * a record may be read after its module is gone. */
#ifndef GSAN_RT_TABLES_H
#define GSAN_RT_TABLES_H

#include "rt_sites.h"

#include <stdint.h>

/* Keeps a loaded module's site tables (takes them; duplicates are freed).
 * Takes rt_gsan.lock. */
void rt_tables_add(rt_site_table **tables, int n);
/* the site table of a module id, or NULL; under rt_gsan.lock */
const rt_site_table *rt_tables_get(uint64_t module);

#endif
