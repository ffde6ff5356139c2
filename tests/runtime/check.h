/* The runtime's CPU unit tests share this: CHECK counts each check and
 * prints the failed condition with a printf-style explanation. */
#ifndef GSAN_TESTS_CHECK_H
#define GSAN_TESTS_CHECK_H
#include <stdio.h>

static int failures, checks;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    checks++;                                                                  \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

#endif
