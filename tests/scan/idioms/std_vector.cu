// Idiom: host data in std::vector (std_vector_guarded.cu, the correct twin,
// says more): here the result is copied back into a vector resized to half
// the elements, with the byte count of all of them.
// RUN: sed 's/(n \/ 2) \* sizeof/n * sizeof/' %S/std_vector_guarded.cu > %t.cu
// RUN: not %gsan-scan %t.cu > %t2.txt
// RUN: %FileCheck %s < %t2.txt
// CHECK: warning: out-of-bounds copy to 'h.data()' by cudaMemcpy [gsan-scan-oob]
// CHECK: note: 'h' allocated here with size n / 2 * 4 bytes
// CHECK: note: witness: n=1: 4 bytes > size 0 bytes
// CHECK: gsan scan: 1 finding, 0 unknown in 10 accesses
