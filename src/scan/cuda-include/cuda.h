/* cuda.h for gsan scan: the declarations are in scan_cuda.h, included first */
#include "../scan_cuda.h"
