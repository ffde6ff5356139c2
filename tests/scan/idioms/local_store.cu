// Idiom: local arrays filled from a word read from memory and read back at
// once (local_store_guarded.cu, the correct twin, says more): shifting by 18
// leaves hash1[i] >> 5 up to 2^9 - 1, past the 256-word filter for a word of
// 2^31 or more, which nothing validates.
// RUN: not %gsan-scan -DSHIFT=18 %S/local_store_guarded.cu > %t.txt
// RUN: %FileCheck %s < %t.txt
// CHECK: local_store_guarded.cu:27:16: warning: the index of the read of 'bits' is read from memory and not validated [gsan-scan-unvalidated-index]
// CHECK: note: 'words[gid * VEC + i]' is read here
// 2^31 >> 18 = 8192, >> 5 = 256: the first word past the filter
// CHECK: note: witness: words[gid * VEC + i]=2147483648: index 256 >= size 256 (4-byte elements: byte 1024, size 1024 bytes)
// CHECK: gsan scan: 1 finding, 0 unknown in
