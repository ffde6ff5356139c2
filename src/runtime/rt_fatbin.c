/* Reading module images (rt_fatbin.h): the fatbin container, zstd-compressed
 * entries (libzstd), cubin symbols (libelf), and site tables in PTX text. */
#include "rt_fatbin.h"

#include <gelf.h>
#include <gsan/abi.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static uint32_t rd32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

int rt_image_kind(const void *image, const void **fatbin, size_t *len) {
  const unsigned char *p = image;
  if (!p) return RT_IMAGE_UNKNOWN;
  uint32_t magic = rd32(p);
  if (magic == RT_FATBIN_WRAPPER_MAGIC) {
    /* struct { int magic; int version; const void *data; void *filename; } */
    const void *data;
    memcpy(&data, p + 8, sizeof data);
    if (!data || rd32(data) != RT_FATBIN_MAGIC) return RT_IMAGE_UNKNOWN;
    p = data;
    magic = RT_FATBIN_MAGIC;
  }
  if (magic == RT_FATBIN_MAGIC) {
    *fatbin = p;
    *len = (size_t)(p[6] | p[7] << 8) + rd64(p + 8);
    return RT_IMAGE_FATBIN;
  }
  if (!memcmp(p, ELFMAG, SELFMAG)) {
    /* a cubin passed alone carries no length: its section headers end it */
    if (p[EI_CLASS] != ELFCLASS64) return RT_IMAGE_UNKNOWN;
    Elf64_Ehdr eh;
    memcpy(&eh, p, sizeof eh);
    *fatbin = p;
    /* ptxas puts the program headers after the section headers */
    uint64_t sh_end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
    uint64_t ph_end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
    *len = (size_t)(sh_end > ph_end ? sh_end : ph_end);
    return RT_IMAGE_ELF;
  }
  return RT_IMAGE_PTX; /* the driver treats anything else as PTX text */
}

/* Entry header, as nvcc 13 writes it: u16 kind, u16 version, u32 header
 * size, u64 payload size, ..., u32 arch at 28, u32 flags at 40
 * (0x8000: the payload is compressed). */
#define ENTRY_ARCH 28
#define ENTRY_FLAGS 40
#define FLAG_COMPRESSED 0x8000u

int rt_fatbin_entries(const void *fatbin, size_t len, rt_fatbin_entry *out, int max, const char **why) {
  const unsigned char *p = fatbin;
  if (len < 16 || rd32(p) != RT_FATBIN_MAGIC) { *why = "not a fatbin"; return -1; }
  size_t hsize = (size_t)(p[6] | p[7] << 8), end = hsize + rd64(p + 8);
  if (hsize < 16 || end > len || end < hsize) { *why = "fatbin sizes do not fit"; return -1; }
  int n = 0;
  for (size_t off = hsize; off < end;) {
    if (end - off < 48) { *why = "truncated fatbin entry header"; return -1; }
    uint32_t eh = rd32(p + off + 4);
    uint64_t size = rd64(p + off + 8);
    if (eh < 48 || eh > end - off || size > end - off - eh) { *why = "fatbin entry sizes do not fit"; return -1; }
    if (n < max) {
      rt_fatbin_entry *e = &out[n];
      e->kind = p[off] | p[off + 1] << 8;
      e->arch = rd32(p + off + ENTRY_ARCH);
      e->compressed = (rd32(p + off + ENTRY_FLAGS) & FLAG_COMPRESSED) != 0;
      e->payload = p + off + eh;
      e->payload_size = size;
    }
    n++;
    off += eh + size;
  }
  *why = NULL;
  return n;
}

rt_fatbin_entry *rt_fatbin_list(const void *fatbin, size_t len, int *n, const char **why) {
  int count = rt_fatbin_entries(fatbin, len, NULL, 0, why);
  if (count < 0) return NULL;
  rt_fatbin_entry *e = malloc((size_t)(count ? count : 1) * sizeof *e);
  if (!e) { *why = "out of memory"; return NULL; }
  *n = rt_fatbin_entries(fatbin, len, e, count, why);
  return e;
}

int rt_site_list_add(rt_site_list *l, rt_site_table *t) {
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    rt_site_table **grown = realloc(l->t, (size_t)cap * sizeof *grown);
    if (!grown) {
      rt_sites_free(t);
      return -1;
    }
    l->t = grown;
    l->cap = cap;
  }
  l->t[l->n++] = t;
  return 0;
}

void rt_site_list_free(rt_site_list *l) {
  for (int i = 0; i < l->n; i++) rt_sites_free(l->t[i]);
  free(l->t);
  memset(l, 0, sizeof *l);
}

unsigned char *rt_fatbin_payload(const rt_fatbin_entry *e, size_t *len, const char **why) {
  unsigned char *out;
  if (!e->compressed) {
    out = malloc(e->payload_size + 1);
    if (!out) { *why = "out of memory"; return NULL; }
    memcpy(out, e->payload, e->payload_size);
    out[e->payload_size] = 0;
    *len = e->payload_size;
    return out;
  }
  /* the payload is padded after the zstd frame: the frame says its sizes */
  size_t frame = ZSTD_findFrameCompressedSize(e->payload, e->payload_size);
  unsigned long long plain = ZSTD_getFrameContentSize(e->payload, e->payload_size);
  if (ZSTD_isError(frame) || plain == ZSTD_CONTENTSIZE_ERROR || plain == ZSTD_CONTENTSIZE_UNKNOWN ||
      plain > (1ull << 32)) {
    *why = "compressed with a method gsan does not know (not a zstd frame)";
    return NULL;
  }
  /* a frame holds at most 128 KiB per 4 bytes (an RLE block): a claim past
   * that is a lie, which must not cost its size in memory before zstd says so */
  if (plain > (unsigned long long)frame * 32768 + (1u << 17)) {
    *why = "zstd data is corrupt (claims more than its frame can hold)";
    return NULL;
  }
  out = malloc((size_t)plain + 1);
  if (!out) { *why = "out of memory"; return NULL; }
  size_t got = ZSTD_decompress(out, (size_t)plain, e->payload, frame);
  if (ZSTD_isError(got) || got != plain) {
    free(out);
    *why = "zstd data is corrupt";
    return NULL;
  }
  out[got] = 0;
  *len = got;
  return out;
}

int rt_elf_site_tables(const void *elf, size_t len, rt_site_list *out, const char **why) {
  *why = NULL;
  if (elf_version(EV_CURRENT) == EV_NONE) { *why = "libelf unusable"; return -1; }
  char *copy = malloc(len); /* elf_memory wants writable memory */
  if (!copy) { *why = "out of memory"; return -1; }
  memcpy(copy, elf, len);
  Elf *e = elf_memory(copy, len);
  int n = -1;
  if (!e || elf_kind(e) != ELF_K_ELF) { *why = "not an ELF image"; goto done; }
  n = 0;
  for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn)) != NULL;) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
    Elf_Data *syms = elf_getdata(scn, NULL);
    size_t count = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
    for (size_t i = 0; syms && i < count; i++) {
      GElf_Sym sym;
      if (!gelf_getsym(syms, (int)i, &sym)) continue;
      const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
      if (!name || strncmp(name, GSAN_SITES_PREFIX, strlen(GSAN_SITES_PREFIX)) || sym.st_shndx == SHN_UNDEF ||
          sym.st_shndx >= SHN_LORESERVE)
        continue;
      /* a cubin's symbol value is its offset in its section */
      Elf_Scn *ds = elf_getscn(e, sym.st_shndx);
      Elf_Data *d = ds ? elf_getdata(ds, NULL) : NULL;
      if (!d || !d->d_buf || sym.st_value > d->d_size || sym.st_size > d->d_size - sym.st_value) {
        *why = "a site table symbol points outside its section";
        continue;
      }
      const char *bad;
      rt_site_table *t = rt_sites_parse((const char *)d->d_buf + sym.st_value, sym.st_size, &bad);
      if (!t) { *why = bad; continue; }
      if (rt_site_list_add(out, t) == 0) n++;
      else *why = "out of memory";
    }
  }
done:
  if (e) elf_end(e);
  free(copy);
  return n;
}

/* a decimal number of at most 10 digits at *p (before end), spaces first */
static int read_number(const char **p, const char *end, uint64_t *v) {
  const char *q = *p;
  while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
  const char *start = q;
  *v = 0;
  while (q < end && q - start < 10 && *q >= '0' && *q <= '9') *v = *v * 10 + (uint64_t)(*q++ - '0');
  if (q == start) return -1;
  *p = q;
  return 0;
}

/* the punctuation c at *p (before end), spaces first */
static int read_punct(const char **p, const char *end, char c) {
  const char *q = *p;
  while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')) q++;
  if (q == end || *q != c) return -1;
  *p = q + 1;
  return 0;
}

/* the bytes of one initialiser, from after the symbol's name: [N] = {b, b, ...} */
static unsigned char *table_bytes(const char **p, const char *end, size_t *n) {
  uint64_t count, b;
  if (read_punct(p, end, '[') || read_number(p, end, &count) || read_punct(p, end, ']') || read_punct(p, end, '=') ||
      read_punct(p, end, '{') || count == 0 || count > (uint64_t)(end - *p) / 2 + 1)
    return NULL;
  unsigned char *blob = malloc(count);
  if (!blob) return NULL;
  for (uint64_t i = 0; i < count; i++) {
    if ((i && read_punct(p, end, ',')) || read_number(p, end, &b) || b > 255) break;
    blob[i] = (unsigned char)b;
    if (i + 1 == count && !read_punct(p, end, '}')) {
      *n = count;
      return blob;
    }
  }
  free(blob);
  return NULL;
}

int rt_ptx_site_tables(const char *ptx, size_t len, rt_site_list *out, const char **why) {
  static const char decl[] = ".b8 " GSAN_SITES_PREFIX;
  const char *end = ptx + len;
  int n = 0;
  *why = NULL;
  for (const char *p = ptx; (p = memmem(p, (size_t)(end - p), decl, sizeof decl - 1)) != NULL;) {
    p += sizeof decl - 1;
    int digits = 0;
    while (p < end && digits < 16 && ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) p++, digits++;
    size_t size;
    unsigned char *blob = digits == 16 ? table_bytes(&p, end, &size) : NULL;
    if (!blob) {
      *why = "a site table's initialiser is malformed";
      continue;
    }
    const char *bad;
    rt_site_table *t = rt_sites_parse(blob, size, &bad);
    free(blob);
    if (!t) *why = bad;
    else if (rt_site_list_add(out, t) == 0) n++;
    else *why = "out of memory";
  }
  return n;
}
