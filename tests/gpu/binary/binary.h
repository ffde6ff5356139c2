// Shared by binary mode's GPU tests: a CUDA call that must succeed.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                                     \
  do {                                                                                       \
    cudaError_t e_ = (call);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));         \
      exit(3);                                                                               \
    }                                                                                        \
  } while (0)
