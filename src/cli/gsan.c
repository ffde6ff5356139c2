/* The gsan command: dispatches to its subcommands. */
#include "cli.h"
#include "../runtime/rt_flags.h"
#include "../runtime/rt_report_kinds.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"ptx", cli_ptx, "instrument a PTX file: gsan ptx IN.ptx -o OUT.ptx"},
    {"nvcc", cli_nvcc, "nvcc with instrumented device code: gsan nvcc ARGS..."},
    {"run", cli_run, "run a program under gsan: gsan run -- PROGRAM ARGS..."},
    {"scan", cli_scan, "find out-of-bounds accesses in CUDA source statically: gsan scan FILE.cu... | DIR | -p BUILD"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: gsan <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
  fprintf(f,
          "\n'gsan <command> --help' describes a command; 'gsan help options' lists GSAN_OPTIONS;\n"
          "'gsan help reports' lists the kinds of report (what a suppressions file's kind:pattern lines name).\n"
          "gsan %s\n",
          GSAN_VERSION);
}

/* every kind of report gsan prints, one a line: its name, then what it means */
static void help_reports(FILE *f) {
  for (int k = 0; k < RT_REPORT_KINDS; k++)
    fprintf(f, "%-28s %s\n", rt_report_kind_name((rt_report_kind)k), rt_report_kind_about((rt_report_kind)k));
}

int main(int argc, char **argv) {
  const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
  if (!strcmp(base, "ptxas")) return cli_ptxas_wrapper(argc, argv);
  /* one executable path for build systems: CMAKE_CUDA_COMPILER=gsan-nvcc */
  if (!strcmp(base, "gsan-nvcc")) return cli_nvcc(argc, argv);
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "help") && argc > 2) {
    if (!strcmp(argv[2], "options")) {
      rt_flags_help(stdout);
      return 0;
    }
    if (!strcmp(argv[2], "reports")) {
      help_reports(stdout);
      return 0;
    }
    fprintf(stderr, "gsan help: unknown topic '%s' (topics: options, reports)\n", argv[2]);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("gsan %s\n", GSAN_VERSION);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "gsan: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
