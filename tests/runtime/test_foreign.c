/* The driver's allocations that gsan tracks (src/runtime/rt_foreign.c):
 * lookups by any byte, frees, records replaced when the driver hands their
 * addresses out again, the freed ones remembered up to RT_FOREIGN_FREED, and
 * the live ones listed in the order they were made. */
#include "../../src/runtime/rt_foreign.h"

#include <stdio.h>

#include "check.h"

static uint64_t listed[8], nlisted;
static void note(void *arg, const rt_alloc_info *info) {
  (void)arg;
  if (nlisted < 8) listed[nlisted] = info->base;
  nlisted++;
}

int main(void) {
  rt_alloc_info info;
  CHECK(rt_foreign_find(0x1000, &info) == RT_NOT_OURS, "nothing tracked yet");
  rt_foreign_add(0x10000, 4000);
  rt_foreign_add(0x20000, 100);
  CHECK(rt_foreign_find(0x10000, &info) == RT_OK && info.base == 0x10000 && info.size == 4000 &&
            info.state == RT_SLOT_LIVE,
        "the first byte");
  CHECK(rt_foreign_find(0x10000 + 3999, &info) == RT_OK && info.base == 0x10000, "the last byte");
  CHECK(rt_foreign_find(0x10000 + 4000, &info) == RT_NOT_OURS, "one past the end");
  CHECK(rt_foreign_find(0xffff, &info) == RT_NOT_OURS, "one before the start");
  CHECK(rt_foreign_find(0x20000 + 50, &info) == RT_OK && info.base == 0x20000, "the second one");
  CHECK(!rt_foreign_freed(0x10000 + 8), "a free of an interior pointer frees nothing");
  CHECK(rt_foreign_freed(0x10000), "freed");
  CHECK(rt_foreign_find(0x10000 + 8, &info) == RT_OK && info.state == RT_SLOT_FREED, "remembered as freed");
  CHECK(!rt_foreign_freed(0x10000), "not freed twice");
  /* the driver hands part of the freed range out again: the old record goes */
  rt_foreign_add(0x10000 + 1024, 64);
  CHECK(rt_foreign_find(0x10000 + 8, &info) == RT_NOT_OURS, "the freed record replaced");
  CHECK(rt_foreign_find(0x10000 + 1024, &info) == RT_OK && info.state == RT_SLOT_LIVE && info.size == 64,
        "the new allocation");
  rt_foreign_forget(0x20000 + 10);
  CHECK(rt_foreign_find(0x20000, &info) == RT_NOT_OURS, "forgotten");
  /* freed records beyond RT_FOREIGN_FREED: the oldest are forgotten */
  for (uint64_t i = 0; i < RT_FOREIGN_FREED + 10; i++) {
    rt_foreign_add(0x1000000 + i * 256, 256);
    rt_foreign_freed(0x1000000 + i * 256);
  }
  CHECK(rt_foreign_find(0x1000000, &info) == RT_NOT_OURS, "the oldest freed record forgotten");
  CHECK(rt_foreign_find(0x1000000 + 9 * 256, &info) == RT_NOT_OURS, "the tenth too");
  CHECK(rt_foreign_find(0x1000000 + 10 * 256, &info) == RT_OK && info.state == RT_SLOT_FREED, "the eleventh kept");
  CHECK(rt_foreign_find(0x1000000 + (RT_FOREIGN_FREED + 9) * 256, &info) == RT_OK, "the newest kept");
  rt_foreign_add(0x30000, 10);
  rt_foreign_add(0x5000, 10); /* a lower address, made later */
  rt_foreign_foreach_live(note, NULL);
  CHECK(nlisted == 3 && listed[0] == 0x10000 + 1024 && listed[1] == 0x30000 && listed[2] == 0x5000,
        "the live ones, in the order they were made: %llu", (unsigned long long)nlisted);
  printf("%d checks; %d failed\n", checks, failures);
  return failures != 0;
}
