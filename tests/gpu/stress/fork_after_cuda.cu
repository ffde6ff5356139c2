// Stress: fork after CUDA use. The children (one returns through exit, one
// through _exit, one execs a shell) run no CUDA, exit quietly (no leak
// report for the parent's allocations, no hang on gsan's monitor thread),
// and the parent goes on: its own bug afterwards is still reported.
// REQUIRES: gpu
// RUN: %gsan nvcc -g -arch=%arch -o %t %s -lcuda
// RUN: %python %tools/exit_status.py --output %t.out 1 timeout 300 %gsan run -- %t
// RUN: %FileCheck %s < %t.out
// CHECK-NOT: GPUSanitizer
// CHECK: child exit: status 0
// CHECK: child _exit: status 0
// CHECK: child exec: status 0
// CHECK-NOT: leaked
// CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
// CHECK: WRITE of size 4
// CHECK: fork_after_cuda.cu:[[#@LINE+6]]
#include "stress.h"

#include <sys/wait.h>
#include <unistd.h>

__global__ void write_at(int *a, int i) { a[i] = 1; }  // BUG (i = n)

static int child(int how) {
  fflush(stdout);  // nothing buffered is printed twice
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    printf("in the child (%d)\n", how);
    fflush(stdout);
    if (how == 0) exit(0);
    if (how == 1) _exit(0);
    execl("/bin/sh", "sh", "-c", "exit 0", (char *)0);
    _exit(9);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main() {
  int *a;
  CK(cudaMalloc(&a, 1000 * sizeof(int)));  // live in every child
  write_at<<<1, 1>>>(a, 999);
  CK(cudaDeviceSynchronize());
  const char *how[] = {"exit", "_exit", "exec"};
  for (int i = 0; i < 3; i++) printf("child %s: status %d\n", how[i], child(i));
  fflush(stdout);
  write_at<<<1, 1>>>(a, 1000);
  CK(cudaDeviceSynchronize());
  CK(cudaFree(a));
  return 0;
}
