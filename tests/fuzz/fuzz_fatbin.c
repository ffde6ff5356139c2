/* libFuzzer harness for the module-image reader (rt_fatbin.c, rt_sites.c),
 * which reads what a program hands cuModuleLoadData and cuLibraryLoadData:
 * the image's kind, a fatbin's entries, each entry's payload (zstd when
 * compressed) and the site tables in every cubin, as keep_tables in
 * rt_hooks_module.c does. None of it may crash, leak or hit undefined
 * behaviour, whatever the bytes.
 * The reader's contract (the driver has accepted the image by then): the
 * pointer holds at least an ELF header's worth of bytes, and a cudart
 * wrapper's data pointer is a real pointer. So the input is padded to 64
 * bytes, a wrapper's pointer is aimed at the bytes after it, and the length
 * a header claims is cut to the bytes there are. */
#include "../../src/runtime/rt_fatbin.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t fuzz_fatbin_chars; /* the string reads below leave a result, so they stay */

static void read_tables(const void *elf, size_t len) {
  rt_site_list l = {0};
  const char *why;
  int n = rt_elf_site_tables(elf, len, &l, &why);
  if (n != (n < 0 ? -1 : l.n)) abort();
  rt_site_table **t = l.t;
  for (int i = 0; i < l.n; i++) {
    unsigned count = rt_sites_count(t[i]);
    for (unsigned k = 0; k < count && k < 4096; k++) {
      rt_site s;
      if (rt_sites_get(t[i], k, &s) < 0) abort();
      /* every string the table names is readable */
      fuzz_fatbin_chars += strlen(s.func) + (s.file ? strlen(s.file) : 0) + (s.root_name ? strlen(s.root_name) : 0) +
             (s.call_file ? strlen(s.call_file) : 0);
    }
    rt_site tail;
    if (rt_sites_get(t[i], count, &tail) != -1) abort();
  }
  rt_site_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t n = size < 64 ? 64 : size;
  unsigned char *buf = calloc(1, n);
  memcpy(buf, data, size);
  uint32_t magic;
  memcpy(&magic, buf, 4);
  if (magic == RT_FATBIN_WRAPPER_MAGIC) {
    const void *inner = buf + 16;
    memcpy(buf + 8, &inner, sizeof inner);
  }
  const void *img;
  size_t len;
  int kind = rt_image_kind(buf, &img, &len);
  if (kind == RT_IMAGE_FATBIN || kind == RT_IMAGE_ELF) {
    size_t have = n - (size_t)((const unsigned char *)img - buf);
    if (len > have) len = have;
  }
  if (kind == RT_IMAGE_FATBIN) {
    const char *why;
    int ne = 0;
    rt_fatbin_entry *e = rt_fatbin_list(img, len, &ne, &why);
    for (int i = 0; e && i < ne; i++) {
      size_t plen;
      unsigned char *payload = rt_fatbin_payload(&e[i], &plen, &why);
      if (!payload) continue;
      if (e[i].kind == RT_ENTRY_ELF) read_tables(payload, plen);
      free(payload);
    }
    free(e);
  } else if (kind == RT_IMAGE_ELF) {
    read_tables(img, len);
  }
  free(buf);
  return 0;
}
