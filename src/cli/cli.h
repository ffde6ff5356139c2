/* Subcommands of the gsan command. */
#ifndef GSAN_CLI_H
#define GSAN_CLI_H

#define GSAN_VERSION "0.1.0"

int cli_ptx(int argc, char **argv);

#endif
