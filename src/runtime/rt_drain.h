/* Device records to reports: the layer between the rings the kernels write
 * (rt_device.h) and the report printer (rt_report.h). */
#ifndef GSAN_RT_DRAIN_H
#define GSAN_RT_DRAIN_H

#include <cuda.h>

/* Prints the device records written so far; final after a fault or at exit
 * (takes records whose writer died mid-write). In halt mode a device report
 * ends the process with exitcode. Takes rt_gsan.lock. */
void rt_drain(int final);
/* Drains after a driver call returned r (final when r says the context
 * is lost, as after a trap); returns r. */
CUresult rt_drain_after(CUresult r);

#endif
