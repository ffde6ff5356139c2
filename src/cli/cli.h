/* Subcommands of the gsan command. */
#ifndef GSAN_CLI_H
#define GSAN_CLI_H

#define GSAN_VERSION "0.1.0"

int cli_ptx(int argc, char **argv);
int cli_nvcc(int argc, char **argv);
int cli_run(int argc, char **argv);
/* gsan invoked under the name ptxas, from gsan nvcc's private directory */
int cli_ptxas_wrapper(int argc, char **argv);

#endif
