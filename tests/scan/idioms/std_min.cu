// Idiom: a grid size capped with std::min on the host (std_min_guarded.cu,
// the correct twin, says more): here the loop reads in[i + 1] for every even
// i below n, one past the end when n is odd (atomicReduction's
// atomic_reduction_v2 with an odd length on its command line).
// RUN: not %gsan-scan "-DSECOND(i,n)=in[(i)+1]" %S/std_min_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: std_min_guarded.cu:25:80: warning: out-of-bounds read of 'SECOND(i, n)' [gsan-scan-oob]
// CHECK: std_min_guarded.cu:37:3: note: kernel 'pairs' launched here
// n = 7: i = 6 reads in[7] of 7 elements
// CHECK: note: witness: argc=16, atoi(argv[1])=7, gridDim.x=1, blockDim.x=256, blockIdx.x=0, threadIdx.x=3, i=6: index 7 of 'in' >= size 7 (4-byte elements: byte 28, size 28 bytes)
// CHECK: gsan scan: 1 finding, 0 unknown in 3 accesses
