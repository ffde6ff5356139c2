/* Reads a fatbin made by nvcc's tools from an instrumented module: the
 * entries, the PTX (decompressed; written to OUT.ptx for the test to compare
 * with the PTX it was made from, up to comments, which fatbinary strips),
 * and the site table found in the cubin.
 * Usage: test_fatbin FATBIN INSTRUMENTED.ptx CUBIN OUT.ptx */
#include "../../src/runtime/rt_fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END);
  *n = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(*n + 1);
  if (fread(p, 1, *n, f) != *n) exit(2);
  p[*n] = 0;
  fclose(f);
  return p;
}

static void show_tables(const char *what, const void *elf, size_t n) {
  rt_site_list l = {0};
  const char *why;
  int k = rt_elf_site_tables(elf, n, &l, &why);
  printf("%s: %d site table(s)%s%s\n", what, k, why ? ": " : "", why ? why : "");
  for (int i = 0; i < l.n; i++)
    printf("  module %016llx, %u sites\n", (unsigned long long)rt_sites_module(l.t[i]), rt_sites_count(l.t[i]));
  rt_site_list_free(&l);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s FATBIN INSTRUMENTED.ptx CUBIN OUT.ptx\n", argv[0]);
    return 2;
  }
  size_t nf, np, nc;
  (void)np;
  unsigned char *fat = slurp(argv[1], &nf), *ptx = slurp(argv[2], &np), *cubin = slurp(argv[3], &nc);
  const void *container;
  size_t clen;
  /* cudart hands the driver a wrapper around the container */
  struct { unsigned magic, version; const void *data, *unused; } wrapper = {RT_FATBIN_WRAPPER_MAGIC, 1, fat, NULL};
  printf("wrapper: %s\n", rt_image_kind(&wrapper, &container, &clen) == RT_IMAGE_FATBIN && container == fat &&
                              clen <= nf ? "fatbin" : "NOT RECOGNISED");
  printf("cubin: %s\n", rt_image_kind(cubin, &container, &clen) == RT_IMAGE_ELF ? "elf" : "NOT RECOGNISED");
  printf("cubin length from its headers: %s\n", clen == nc ? "the file's" : "WRONG");
  printf("ptx: %s\n", rt_image_kind(ptx, &container, &clen) == RT_IMAGE_PTX ? "ptx" : "NOT RECOGNISED");
  rt_fatbin_entry e[8];
  const char *why;
  int n = rt_fatbin_entries(fat, nf, e, 8, &why);
  printf("entries: %d%s%s\n", n, why ? " " : "", why ? why : "");
  for (int i = 0; i < n && i < 8; i++) {
    size_t len;
    unsigned char *body = rt_fatbin_payload(&e[i], &len, &why);
    printf("entry %d: %s sm_%u%s", i, e[i].kind == RT_ENTRY_PTX ? "ptx" : e[i].kind == RT_ENTRY_ELF ? "elf" : "other",
           e[i].arch, e[i].compressed ? " compressed" : "");
    if (!body) {
      printf(", unreadable: %s\n", why);
      continue;
    }
    if (e[i].kind == RT_ENTRY_PTX) {
      FILE *o = fopen(argv[4], "wb");
      size_t text = strnlen((const char *)body, len); /* NUL padding follows the text */
      if (!o || fwrite(body, 1, text, o) != text || fclose(o)) { perror(argv[4]); return 2; }
      printf(", %zu bytes of PTX\n", text);
    } else {
      printf("\n");
      show_tables("  cubin in the fatbin", body, len);
    }
    free(body);
  }
  show_tables("cubin file", cubin, nc);
  /* damaged containers are refused, not read past their end */
  printf("truncated: %s\n", rt_fatbin_entries(fat, nf / 2, e, 8, &why) < 0 ? why : "ACCEPTED");
  for (int i = 0; i < n && i < 8; i++) {
    if (!e[i].compressed) continue;
    rt_fatbin_entry bad = e[i];
    unsigned char *junk = calloc(1, bad.payload_size);
    bad.payload = junk;
    size_t len;
    printf("not zstd: %s\n", rt_fatbin_payload(&bad, &len, &why) ? "ACCEPTED" : why);
    free(junk);
  }
  rt_site_list none = {0};
  printf("garbage elf: %d\n", rt_elf_site_tables(ptx, np, &none, &why));
  rt_site_list_free(&none);
  free(fat);
  free(ptx);
  free(cubin);
  return 0;
}
