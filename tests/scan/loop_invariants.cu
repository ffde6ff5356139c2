// Relations a loop keeps (scan_invariant.c). A merge path's binary search
// (as HeCBench's segsort writes it) keeps lo0 <= begin <= end <= hi0, so its
// midpoint indexes both inputs and its result indexes the merged tile; a
// compaction keeps its output index at or below the loop's counter. Proved
// safe, where before every one of these accesses was an unknown ("'begin' is
// changed by the loop"). The twins break the relation: a search one past its
// input (the tile's upper half, so one past the tile), a compaction that
// writes two per element, and a search that continues (a loop with continue
// is not inferred): each stays an unknown with the loop's reason, never a
// finding.
// RUN: %gsan-scan %s > %t.txt
// RUN: %FileCheck %s < %t.txt
// RUN: %FileCheck --check-prefix=SAFE %s < %t.txt
#include <cuda_runtime.h>

__device__ int merge_path(const int *a, int na, const int *b, int nb, int diag) {
  int begin = max(0, diag - nb);
  int end = min(diag, na);
  while (begin < end) {
    int mid = (begin + end) >> 1;
    // SAFE-NOT: loop_invariants.cu:[[@LINE+1]]
    bool pred = a[mid] <= b[diag - 1 - mid];
    if (pred) begin = mid + 1;
    else end = mid;
  }
  return begin;
}

__device__ int search_past(const int *a, int na, int key) {
  int lo = 0, hi = na + 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    // CHECK: loop_invariants.cu:[[@LINE+1]]:9: remark: cannot decide whether the read of 'a' stays in bounds: {{'lo'|'hi'}} is changed by the loop at line [[@LINE-2]] [gsan-scan-unknown]
    if (a[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

__device__ int search_continue(const int *a, int na, int key) {
  int lo = 0, hi = na;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    // CHECK: loop_invariants.cu:[[@LINE+1]]:9: remark: cannot decide whether the read of 'a' stays in bounds: {{'lo'|'hi'}} is changed by the loop at line [[@LINE-2]] [gsan-scan-unknown]
    if (a[mid] < key) {
      lo = mid + 1;
      continue;
    }
    hi = mid;
  }
  return lo;
}

__global__ void merge(const int *x, int *out, int *pos) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = x[t];
  __syncthreads();
  int k = merge_path(s, 128, s + 128, 128, t);
  // SAFE-NOT: loop_invariants.cu:[[@LINE+1]]
  out[t] = k < 128 ? s[k] : s[128 + t - k];
  pos[t] = search_past(s + 128, 128, t) + search_continue(s, 128, t);
}

__global__ void compact(const int *x, int *out, int n) {
  int j = 0;
  for (int i = 0; i < n; i++)
    // SAFE-NOT: loop_invariants.cu:[[@LINE+1]]
    if (x[i] > 0) out[j++] = x[i];
}

__global__ void compact_twice(const int *x, int *out, int n) {
  int j = 0;
  for (int i = 0; i < n; i++)
    if (x[i] > 0) {
      // CHECK: loop_invariants.cu:[[@LINE+1]]:7: remark: cannot decide whether the write to 'out' stays in bounds: 'j' is changed by the loop at line [[@LINE-2]] [gsan-scan-unknown]
      out[j] = x[i];
      j += 2;
    }
}

int main() {
  int *x, *o, *p;
  cudaMalloc(&x, 256 * sizeof(int));
  cudaMalloc(&o, 256 * sizeof(int));
  cudaMalloc(&p, 256 * sizeof(int));
  merge<<<1, 256>>>(x, o, p);
  compact<<<1, 1>>>(x, o, 256);
  compact_twice<<<1, 1>>>(x, o, 256);
  cudaFree(x);
  cudaFree(o);
  cudaFree(p);
  return 0;
}
// CHECK: gsan scan: 0 findings, 3 unknown in {{[0-9]+}} accesses
