"""Writes the CUDA programs of deep_nesting.test: 'expr' has one expression
of 2,000 additions between a buggy access and a correct one; 'chain' updates
one variable in 3,000 statements before using it as an index."""
import sys

head = "#include <cstdlib>\n#include <cuda_runtime.h>\n__global__ void k(int *a, int n) {\n"
tail = ("}\nint main(int argc, char **argv) {\n  int n = atoi(argv[1]);\n  if (n < 1 || n > 1024) return 1;\n"
        "  int *a;\n  cudaMalloc(&a, n * sizeof(int));\n  k<<<1, 1>>>(a, n);\n  return 0;\n}\n")
if sys.argv[1] == "expr":
    body = "  a[n] = 1;\n  int x = " + " + ".join(["n"] * 2000) + ";\n  a[n - 1] = x;\n"
else:
    body = "  n = n * 3 + 1;\n" * 3000 + "  a[n] = 0;\n"
sys.stdout.write(head + body + tail)
