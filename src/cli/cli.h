/* Subcommands of the gsan command. */
#ifndef GSAN_CLI_H
#define GSAN_CLI_H

#include <stddef.h>

#define GSAN_VERSION "0.1.0"

int cli_ptx(int argc, char **argv);
int cli_nvcc(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_scan(int argc, char **argv);
/* The ptxas wrapper of gsan nvcc's private directory (set up if needed),
 * DIR/wrap/ptxas, in wrapper, and GSAN_REAL_PTXAS set to the toolkit's ptxas
 * unless it is set already. -1 when there is no toolkit; -2 when the
 * directory cannot be had or fails the rule for what gsan runs code from
 * (rt_trust.h), said on stderr as gsan run. */
int cli_ptxas_setup(char *wrapper, size_t n);
/* gsan invoked under the name ptxas, from gsan nvcc's private directory */
int cli_ptxas_wrapper(int argc, char **argv);

#endif
