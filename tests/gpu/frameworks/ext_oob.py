# A PyTorch extension built by torch.utils.cpp_extension.load with gsan nvcc
# (ext_common.py) writes one element past its output tensor: fill_past's
# thread 1000 writes out[1000] of a 1000-float tensor (ext/oob_ext.cu:15).
# Its in-bounds twin runs first and must pass unreported. run.sh runs it as
#   gsan run -- python3 ext_oob.py
# expects exit status 1 and this output:
# CHECK: extension built by: {{.*}}/gsan-nvcc
# CHECK: in-bounds fill: ok
# CHECK: ERROR: GPUSanitizer: global-buffer-overflow on address
# CHECK-NEXT: WRITE of size 4 at {{0x[0-9a-f]+}} by thread
# CHECK-NEXT: #0 fill_past(float*, int) at {{.*}}oob_ext.cu:15
# CHECK-NEXT: is located 0 bytes after 4000-byte region
# CHECK: allocated by host thread T0 here:
# CHECK: SUMMARY: GPUSanitizer: global-buffer-overflow {{.*}}oob_ext.cu:15 in fill_past(float*, int)
# CHECK-NOT: not reached
import torch

import ext_common

ext = ext_common.load()
out = torch.empty(1000, device='cuda')
ext.fill(out)
torch.cuda.synchronize()
print('in-bounds fill: %s' % ('ok' if torch.equal(out.cpu(), torch.arange(1000, dtype=torch.float32)) else 'WRONG'),
      flush=True)
ext.fill_past(out)  # BUG: one element past the end
torch.cuda.synchronize()
print('not reached: the write past the tensor went unreported', flush=True)
