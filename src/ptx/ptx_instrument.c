/* The instrumenter: finds every memory access, resolves its root, decides
 * which bounds apply (static symbol size, dynamic shared size, arena lookup),
 * hands the checks to elimination, then rewrites each function body: lookups
 * after root definitions, compare-and-branch before accesses, failure stubs
 * out of line at the end of the scope. The text inserted comes from
 * ptx_emit.c. */
#include "ptx_elim.h"
#include "ptx_emit.h"
#include "ptx_heap.h"
#include "ptx_hoist.h"
#include "ptx_launch.h"
#include "ptx_proof.h"
#include "ptx_scope.h"
#include "ptx_support.h"
#include "ptx_valrange.h"

#include <gsan/abi.h>
#include <stdlib.h>
#include <string.h>

/* Parses [reg], [reg+imm], [reg+-imm], [sym], [sym+imm], [imm]. */
static int parse_address(ptx_fstate *fs, const ptx_stmt *s, int k, int *reg, ptx_symbol **sym, int64_t *imm) {
  int lo = s->opnd[k].lo + 1, hi = s->opnd[k].hi - 1; /* inside the brackets */
  *reg = -1;
  *sym = NULL;
  *imm = 0;
  if (hi <= lo || !ptx_tok_punct(&s->toks[hi], ']')) return -1;
  const ptx_tok *b = &s->toks[lo];
  int i = lo + 1;
  if (b->kind == TK_NUMBER) {
    *imm = strtoll(b->text, NULL, 0);
    return i == hi ? 1 : -1; /* absolute address: not checkable */
  }
  if (b->kind != TK_IDENT) return -1;
  *reg = ptx_tok_reg(&fs->fn, b);
  if (*reg < 0) {
    *sym = ptx_tok_symbol(&fs->fn, b);
    if (!*sym) return -1;
  }
  if (i == hi) return 0;
  if (!ptx_tok_punct(&s->toks[i], '+') && !ptx_tok_punct(&s->toks[i], '-')) return -1;
  int neg = ptx_tok_punct(&s->toks[i], '-');
  i++;
  if (i < hi && ptx_tok_punct(&s->toks[i], '-')) { neg = !neg; i++; }
  if (i != hi - 1 || s->toks[i].kind != TK_NUMBER) return -1;
  *imm = strtoll(s->toks[i].text, NULL, 0);
  if (neg) *imm = -*imm;
  return 0;
}

/* The module's site for an access of the function being rewritten (the
 * kernel's own number again while a copy of it is written) */
static int site(ptx_fstate *fs, const ptx_site_desc *sd) {
  return ptx_sites_logged(fs->sites, &fs->site_log, fs->launch.copy, sd);
}

static int root_slot_for(ptx_fstate *fs, int def) {
  for (int i = 0; i < fs->nroots; i++)
    if (fs->roots[i].def == def) return i;
  fs->roots = realloc(fs->roots, (size_t)(fs->nroots + 1) * sizeof *fs->roots);
  ptx_root_slot *r = &fs->roots[fs->nroots];
  memset(r, 0, sizeof *r);
  r->def = def;
  r->reg = fs->fn.def[def].reg;
  r->base = fs->nrd++;
  r->size = fs->nrd++;
  return fs->nroots++;
}

/* .loc tracking for the site table */
#define LOC_CHAIN 64
typedef struct loc {
  int file, line, col, call_file, call_line;
  /* recent .loc lines that were themselves inlined, with where: a nested
   * inline names only its immediate caller, whose own .loc came before */
  struct { int file, line, col, cfile, cline, ccol; } chain[LOC_CHAIN];
  int nchain;
} loc;

/* .loc F L C [, function_name X] [, inlined_at F2 L2 C2]: inlined code also
 * says where it was inlined. Nested inlining (a library helper inside a
 * header inside the kernel) is followed back through the earlier .locs to
 * the outermost call, which is the line the reader wrote. */
static void note_loc(loc *l, const ptx_stmt *s) {
  if (s->kind != ST_DIRECTIVE || !ptx_tok_is(&s->toks[0], ".loc") || s->ntok < 3) return;
  l->file = atoi(s->toks[1].text);
  l->line = atoi(s->toks[2].text);
  l->col = s->ntok > 3 && s->toks[3].kind == TK_NUMBER ? atoi(s->toks[3].text) : 0;
  l->call_file = l->call_line = 0;
  for (int i = 4; i + 2 < s->ntok; i++) {
    if (!ptx_tok_is(&s->toks[i], "inlined_at") || s->toks[i + 1].kind != TK_NUMBER || s->toks[i + 2].kind != TK_NUMBER)
      continue;
    int cf = atoi(s->toks[i + 1].text), cl = atoi(s->toks[i + 2].text);
    int cc = i + 3 < s->ntok && s->toks[i + 3].kind == TK_NUMBER ? atoi(s->toks[i + 3].text) : 0;
    int slot = l->nchain++ % LOC_CHAIN;
    l->chain[slot].file = l->file;
    l->chain[slot].line = l->line;
    l->chain[slot].col = l->col;
    l->chain[slot].cfile = cf;
    l->chain[slot].cline = cl;
    l->chain[slot].ccol = cc;
    for (int depth = 0; depth < LOC_CHAIN; depth++) {
      int found = -1, n = l->nchain < LOC_CHAIN ? l->nchain : LOC_CHAIN;
      for (int k = 1; k < n && found < 0; k++) { /* newest first, not this .loc itself */
        int j = ((l->nchain - 1 - k) % LOC_CHAIN + LOC_CHAIN) % LOC_CHAIN;
        if (l->chain[j].file == cf && l->chain[j].line == cl && l->chain[j].col == cc) found = j;
      }
      if (found < 0) break;
      cf = l->chain[found].cfile;
      cl = l->chain[found].cline;
      cc = l->chain[found].ccol;
    }
    l->call_file = cf;
    l->call_line = cl;
  }
}

static const char *file_name(ptx_fstate *fs, int index) {
  if (index <= 0 || index >= fs->m->files.n) return NULL;
  return fs->m->files.v[index];
}

static void add_check(ptx_fstate *fs, const ptx_check *c) {
  if (fs->nc == fs->capc) {
    fs->capc = fs->capc ? fs->capc * 2 : 64;
    fs->c = realloc(fs->c, (size_t)fs->capc * sizeof *fs->c);
  }
  fs->c[fs->nc++] = *c;
}

/* ---- step 1: find accesses, resolve roots, record checks ---- */
static void collect(ptx_fstate *fs) {
  ptx_fn *fn = &fs->fn;
  loc l;
  memset(&l, 0, sizeof l);
  /* what registers can hold, asked only of accesses rooted at a variable */
  ptx_valrange *vr = fn->ok && !fs->o->no_elim ? ptx_valrange_new(fn) : NULL;
  for (int i = 0; i < fn->nst; i++) {
    ptx_stmt *s = fn->st[i];
    note_loc(&l, s);
    int heap = ptx_heap_call(s);
    if (heap != PTX_HEAP_NONE) { /* rewritten once the function is done (ptx_heap.c) */
      ptx_site_desc sd = {fs->fn.f->name, file_name(fs, l.file), l.line, l.col, s->line, file_name(fs, l.call_file),
                          l.call_line, heap == PTX_HEAP_FREE ? GSAN_ACCESS_FREE : GSAN_ACCESS_MALLOC,
                          GSAN_SPACE_GLOBAL, 0, NULL, 0};
      ptx_heap_site *h = ptx_alloc(fs->m->arena, sizeof *h);
      *h = (ptx_heap_site){s, heap, site(fs, &sd)};
      ptx_vec_push(&fs->heap.calls, h);
      fs->heap.used |= 1u << heap;
    }
    ptx_access acc[2];
    const char *why;
    int na = ptx_insn_accesses(s, acc, &why);
    if (na == INSN_UNSUPPORTED) {
      fs->st->unchecked_unsupported++;
      ptx_warn(fs->d, s->line, s->toks[s->op].col, "not checked: '%.*s': %s", (int)s->toks[s->op].len,
               s->toks[s->op].text, why);
      continue;
    }
    for (int a = 0; a < na; a++) {
      ptx_access *ac = &acc[a];
      int sp = ac->space;
      fs->st->seen[sp]++;
      if (!(fs->o->spaces & (1u << sp))) { fs->st->not_requested++; continue; }
      ptx_check c;
      memset(&c, 0, sizeof c);
      c.stmt = i;
      c.step_reg = -1;
      c.space = sp;
      c.acc = *ac;
      c.pred_reg = -1;
      if (s->pred >= 0) {
        c.pred_tok = &s->toks[s->pred];
        c.pred_reg = ptx_tok_reg(fn, c.pred_tok);
        c.pred_neg = s->pred_neg;
      }
      int64_t imm;
      int rc = parse_address(fs, s, ac->addr_opnd, &c.addr_reg, &c.addr_sym, &imm);
      if (rc != 0) {
        fs->st->unchecked_unsupported++;
        ptx_warn(fs->d, s->line, s->toks[s->opnd[ac->addr_opnd].lo].col, "not checked: address form not supported");
        continue;
      }
      const ptx_tok *wtok = ac->width_opnd >= 0 ? &s->toks[s->opnd[ac->width_opnd].lo] : NULL;
      int wr = wtok ? ptx_tok_reg(fn, wtok) : -1;
      if (wtok && wtok->kind != TK_NUMBER && (wr < 0 || fn->regs.bits[wr] == 1)) {
        /* cp.async's ignore-src predicate: the cp-size source bytes are read
         * only when it is false, so it guards the check like @!p would */
        if (wr < 0 || c.pred_reg >= 0) {
          fs->st->unchecked_unsupported++;
          ptx_warn(fs->d, s->line, wtok->col, "not checked: cp.async source under two predicates");
          continue;
        }
        c.pred_tok = wtok;
        c.pred_reg = wr;
        c.pred_neg = 1;
        ac->width = acc[0].width;
        wtok = NULL;
      }
      if (c.addr_reg >= 0) {
        c.bits = fn->regs.bits[c.addr_reg] == 32 ? 32 : 64;
        if (fn->regs.bits[c.addr_reg] != 32 && fn->regs.bits[c.addr_reg] != 64) {
          fs->st->unchecked_unsupported++;
          continue;
        }
        c.root = ptx_find_root(fs->rw, i, c.addr_reg);
      } else {
        c.bits = 64;
        c.root.kind = ROOT_SYMBOL;
        c.root.sym = c.addr_sym;
      }
      c.lo = imm;
      c.hi = imm + ac->width;
      ptx_site_desc sd = {fs->fn.f->name, file_name(fs, l.file), l.line, l.col, s->line,
                          file_name(fs, l.call_file), l.call_line, ac->kind, sp, ac->width,
                          c.root.kind == ROOT_SYMBOL ? c.root.sym : NULL, 0};
      ptx_check scope;
      if (ptx_scope_check(fs, &c, sd, &scope)) add_check(fs, &scope);
      /* which bounds apply */
      if (c.root.kind == ROOT_SYMBOL) {
        ptx_symbol *sym = c.root.sym;
        if (!sym->dynamic && sym->size == 0) { /* extern, size declared elsewhere */
          fs->st->unchecked_extern++;
          continue;
        }
        if (sym->space == GSAN_SPACE_CONST && sp != GSAN_SPACE_CONST && sp != GSAN_SPACE_GENERIC) {
          fs->st->unchecked_noroot++;
          continue;
        }
      } else if (sp == GSAN_SPACE_SHARED || sp == GSAN_SPACE_LOCAL || sp == GSAN_SPACE_CONST) {
        /* the arena holds global memory only; a shared or local access needs a
         * variable as its root */
        fs->st->unchecked_noroot++;
        continue;
      }
      c.nmem = 1;
      c.mem = ptx_alloc(fs->fn.a, sizeof *c.mem);
      c.mem[0].imm = imm;
      c.mem[0].width = ac->width;
      c.mem[0].wtok = ac->width ? NULL : wtok;
      c.mem[0].site = site(fs, &sd);
      /* [symbol+imm] with a static size is decided now */
      if (c.addr_sym && !c.addr_sym->dynamic) {
        if (imm >= 0 && ac->width > 0 && (uint64_t)imm + (uint64_t)ac->width <= c.addr_sym->size) {
          fs->st->static_safe++;
          fs->st->checked[sp]++;
          continue;
        }
        c.always_fail = ac->width > 0;
        if (c.always_fail) {
          fs->st->static_oob++;
          ptx_warn(fs->d, s->line, s->toks[s->opnd[ac->addr_opnd].lo].col,
                   "access [%s%+lld] of %d bytes is outside '%s' (%llu bytes): it always fails", c.addr_sym->name,
                   (long long)imm, ac->width, c.addr_sym->name, (unsigned long long)c.addr_sym->size);
        }
      }
      /* [register+imm] whose register no value takes out of its variable */
      if (c.root.kind == ROOT_SYMBOL && c.addr_reg >= 0 && ac->width > 0 &&
          ptx_valrange_inside(vr, i, c.addr_reg, imm, imm + ac->width, c.root.sym)) {
        fs->st->range_safe++;
        fs->st->checked[sp]++;
        continue;
      }
      fs->st->checked[sp]++;
      if (c.root.kind == ROOT_SYMBOL && c.root.sym->frame_of) fs->st->frame_array_checks++;
      add_check(fs, &c);
    }
  }
  ptx_valrange_free(vr);
}

/* Generated text becomes raw statements (ptx_emit_text): nothing analyses
 * it after this point, so it is printed as written instead of being lexed
 * back. The tests run ptxas on every instrumented corpus file to hold it to
 * the grammar. */
static int ends_flow(const ptx_stmt *s) {
  return s && s->kind == ST_INSN && s->pred < 0 &&
         (ptx_op_is(s, "ret") || ptx_op_is(s, "exit") || ptx_op_is(s, "trap") || ptx_op_is(s, "bra"));
}

/* Out-of-line stubs at the end of a scope: reached only by their checks'
 * branches, so the code before them jumps over unless it cannot fall through. */
static void flush_stubs(ptx_fstate *fs, ptx_vec *out, ptx_buf *stubs, const ptx_stmt *last, int scope, int *over) {
  if (!stubs->n) return;
  ptx_buf t = {0};
  int jump = !ends_flow(last);
  if (jump) ptx_bprintf(&t, "\tbra.uni \t$L__gsan_over_%d;\n", *over);
  ptx_bprintf(&t, "%.*s", (int)stubs->n, stubs->p);
  if (jump) ptx_bprintf(&t, "$L__gsan_over_%d:\n", (*over)++);
  ptx_emit_text(fs, out, &t, scope);
  free(t.p);
  stubs->n = 0;
}

/* ---- step 2+3: per function ---- */
static void rewrite_function(ptx_fstate *fs, ptx_func *f) {
  ptx_fn *fn = &fs->fn;
  ptx_fn_build(fn, fs->m, f);
  fs->st->funcs++;
  if (!fn->ok) {
    fs->st->funcs_fallback++;
    ptx_warn(fs->d, f->line, 1, "function '%s': %s; its accesses are looked up where they happen", f->name,
             fn->why ? fn->why : "control flow not analysable");
  }
  fs->rw = ptx_roots_new(fn, fs->o->frame_arrays);
  fs->nc = 0;
  fs->nroots = 0;
  fs->nrd = RD_FIRST_ROOT;
  fs->nr32 = R_FIRST_FREE;
  collect(fs);
  if (!fs->o->no_elim && !fs->o->recover && fn->ok) ptx_eliminate(fn, fs->c, fs->nc, fs->st);
  /* the proven copy leaves out what the runtime decides at launch: before
   * the roots and loops are planned, so that neither serves those checks */
  if (fs->proof.copy && !fs->o->no_elim) fs->proof.plan = ptx_proof_plan(fs);
  /* root slots for the surviving checks */
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    if (c->removed || c->root.kind != ROOT_ARENA) continue;
    c->root_slot = root_slot_for(fs, c->root.def);
    fs->st->hoisted_uses++;
  }
  /* a function whose locals escape poisons them before every ret, which a
   * loop's fast copy would leave out: its loops are not copied */
  fs->scope.self = ptx_scope_frame(fs, f);
  fs->scope.labels = 0;
  if (!fs->scope.self) ptx_hoist_plan(fs);
  if (!fs->o->no_elim && !fs->o->recover && fn->ok) {
    ptx_merge_chains(fn, fs->c, fs->nc, fs->st);
    ptx_merge_families(fn, fs->c, fs->nc, fs->st);
  }
  /* checks and stubs first: emitting them registers the widths that the
   * root lookups then compute counts for */
  int n = fn->nst, id = 0;
  long checks_before = fs->st->checks;
  ptx_buf *pre = calloc((size_t)n + 1, sizeof *pre), *stub = calloc((size_t)n + 1, sizeof *stub);
  ptx_buf *post = calloc((size_t)n + 1, sizeof *post);
  for (int i = 0; i < fs->nc; i++) {
    ptx_check *c = &fs->c[i];
    if (c->removed) continue;
    ptx_emit_check(fs, &pre[c->stmt], c, id);
    ptx_emit_stub(fs, &stub[c->stmt], c, id);
    if (fs->o->recover) ptx_bprintf(&post[c->stmt], "$L__gsan_resume_%d:\n", id);
    id++;
    fs->st->checks++;
    fs->st->lookups_access += c->root.kind == ROOT_NONE && !c->always_fail;
  }
  ptx_hoist_checks(fs, pre, stub, &id);
  ptx_scope_exits(fs, pre);
  for (int r = 0; r < fs->nroots; r++) {
    int at = fn->def[fs->roots[r].def].stmt;
    ptx_emit_root_lookup(fs, &post[at], &fs->roots[r], fn->st[at], 0);
  }
  ptx_hoist_lookups(fs);
  fs->st->lookups_root += fs->nroots;
  ptx_vec out = {0};
  ptx_buf prologue = {0};
  if (fs->nc > 0 || fs->nroots > 0 || fs->scope.self) ptx_emit_prologue(fs, &prologue);
  ptx_scope_prologue(fs, &prologue);
  /* the prologue goes after the function's own leading declarations */
  int lead = 0;
  while (lead < n && fn->st[lead]->kind == ST_DIRECTIVE && !ptx_tok_is(&fn->st[lead]->toks[0], ".loc") &&
         !ptx_tok_is(&fn->st[lead]->toks[0], ".pragma"))
    lead++;
  /* stubs gather per open scope and go at its end, where labels are in scope */
  ptx_vec scopes = {0};
  ptx_vec_push(&scopes, calloc(1, sizeof(ptx_buf)));
  int over = 0;
  for (int i = 0; i <= n; i++) {
    if (i == lead) ptx_emit_text(fs, &out, &prologue, 1);
    if (i == n) break;
    ptx_stmt *s = fn->st[i];
    if (s->kind == ST_CLOSE && scopes.n > 1) {
      ptx_buf *sc = scopes.v[--scopes.n];
      flush_stubs(fs, &out, sc, i > 0 ? fn->st[i - 1] : NULL, s->scope + 1, &over);
      free(sc->p);
      free(sc);
    }
    ptx_emit_text(fs, &out, &pre[i], s->scope);
    ptx_vec_push(&out, s);
    if (s->kind == ST_OPEN) ptx_vec_push(&scopes, calloc(1, sizeof(ptx_buf)));
    ptx_emit_text(fs, &out, &post[i], s->scope);
    ptx_hoist_tail(fs, i, &out);
    if (stub[i].n) {
      ptx_buf *sc = scopes.v[scopes.n - 1];
      ptx_bprintf(sc, "%.*s", (int)stub[i].n, stub[i].p);
    }
  }
  if (!fs->o->recover && fs->st->checks > checks_before) ptx_emit_report_block(scopes.v[0]);
  for (int k = scopes.n - 1; k >= 0; k--) {
    ptx_buf *sc = scopes.v[k];
    flush_stubs(fs, &out, sc, n > 0 ? fn->st[n - 1] : NULL, 1, &over);
    free(sc->p);
    free(sc);
  }
  ptx_vec_free(&scopes);
  for (int i = 0; i <= n; i++) {
    free(pre[i].p);
    free(stub[i].p);
    free(post[i].p);
  }
  free(pre);
  free(stub);
  free(post);
  free(prologue.p);
  ptx_vec_free(&f->body);
  f->body = out;
  for (int i = 0; i < fs->heap.calls.n; i++) {
    ptx_heap_site *h = fs->heap.calls.v[i];
    h->s->raw = ptx_heap_rewrite(fs->m->arena, h->s, h->which, fs->modid, h->site);
    h->s->kind = ST_RAW;
  }
  fs->heap.calls.n = 0;
  ptx_hoist_free(fs);
  ptx_roots_free(fs->rw);
  fs->rw = NULL;
  ptx_fn_free(fn);
}

/* the kernel's linkage, for what is written beside it */
static const char *linkage(const ptx_func *f) {
  for (int i = 0; i < f->nhead; i++) {
    if (ptx_tok_is(&f->head[i], ".visible")) return ".visible";
    if (ptx_tok_is(&f->head[i], ".weak")) return ".weak";
  }
  return "";
}

/* f's copy rewritten again, under the kernel's own site numbers and with
 * statistics of its own that are not counted */
static void rewrite_copy(ptx_fstate *fs, ptx_func *copy) {
  ptx_stats *st = fs->st, scratch;
  memset(&scratch, 0, sizeof scratch);
  fs->st = &scratch;
  fs->launch.copy = 1;
  fs->site_log.next = 0;
  int warnings = fs->d->warnings;
  fs->d->quiet++;
  rewrite_function(fs, copy);
  fs->d->quiet--;
  fs->d->warnings = warnings;
  fs->launch.copy = 0;
  fs->st = st;
}

/* what a kernel's rewrite puts after it in the module */
typedef struct beside {
  ptx_func *copy;   /* the launch-bounds copy, or NULL */
  ptx_func *proven; /* the proven copy, or NULL */
  char *facts;      /* and its facts blob's declaration */
} beside;

/* Rewrites f, and for a kernel whose pointer parameters are checked also
 * its launch-bounds copy (ptx_launch.c): the same rewrite but for the
 * bounds of those parameters. The copy is rewritten from f's statements as
 * they were. Then the proven copy (ptx_proof.c): the launch-bounds copy
 * without the checks the runtime decides at launch, and the facts that say
 * what those are. */
static beside instrument_function(ptx_fstate *fs, ptx_func *f) {
  beside out = {NULL, NULL, NULL};
  ptx_lparams *lp = fs->o->no_launch_bounds ? NULL : ptx_launch_params(fs->m->arena, f);
  ptx_func *copy = lp ? ptx_launch_clone(fs->m->arena, f) : NULL;
  ptx_func *proven = lp && !fs->o->no_launch_proofs && !fs->o->no_elim ? ptx_launch_clone(fs->m->arena, f) : NULL;
  fs->site_log.n = 0;
  fs->launch.params = lp;
  fs->launch.words = 0;
  rewrite_function(fs, f); /* counts the words a copy would read */
  int words = fs->launch.words;
  if (copy && words > 0) rewrite_copy(fs, copy);
  if (copy && words > 0 && ptx_launch_finish(fs->m->arena, copy, lp, words, GSAN_LAUNCH_PREFIX) == 0) {
    fs->st->launch_copies++;
    out.copy = copy;
  } else if (copy) {
    ptx_vec_free(&copy->body); /* the rest is the module arena's */
  }
  if (proven && out.copy) {
    fs->proof.copy = 1;
    rewrite_copy(fs, proven);
    fs->proof.copy = 0;
    int facts = ptx_proof_facts(fs->proof.plan);
    /* the same parameters as the launch-bounds copy: it reads fewer of its words */
    if (facts > 0 && ptx_launch_finish(fs->m->arena, proven, lp, words, GSAN_PROVEN_PREFIX) == 0) {
      fs->st->proven_copies++;
      fs->st->proven_checks += facts;
      out.proven = proven;
      out.facts = ptx_proof_decl(fs->m->arena, fs->proof.plan, f->name, linkage(f));
    }
    ptx_proof_free(fs->proof.plan);
    fs->proof.plan = NULL;
  }
  if (proven && !out.proven) ptx_vec_free(&proven->body);
  fs->launch.params = NULL;
  return out;
}

static uint64_t fnv64(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
  return h;
}

static ptx_item *text_item(ptx_module *m, const char *text) {
  ptx_stmt *s = ptx_alloc(m->arena, sizeof *s);
  s->kind = ST_RAW;
  s->raw = text;
  s->pred = -1;
  ptx_item *it = ptx_alloc(m->arena, sizeof *it);
  it->kind = IT_STMT;
  it->stmt = s;
  return it;
}

int ptx_instrument(ptx_module *m, const ptx_opts *o, ptx_stats *st, ptx_diag *d) {
  /* the report path claims ring slots per warp (activemask, shfl.sync) */
  if (m->version_major * 10 + m->version_minor < 62) {
    ptx_error(d, 1, 1, "PTX ISA %d.%d is not supported: gsan needs 6.2 or newer (CUDA 10.1)", m->version_major,
              m->version_minor);
    return -1;
  }
  if (m->address_size != 64) {
    ptx_error(d, 1, 1, ".address_size %d is not supported: gsan instruments 64-bit PTX", m->address_size);
    return -1;
  }
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind == IT_FUNC && it->func->name && strncmp(it->func->name, "__gsan_", 7) == 0) {
      ptx_error(d, it->func->line, 1, "module is already instrumented by gsan ('%s')", it->func->name);
      return -1;
    }
  }
  ptx_fstate fs;
  memset(&fs, 0, sizeof fs);
  fs.m = m;
  fs.o = o;
  fs.st = st;
  fs.d = d;
  fs.sites = ptx_sites_new();
  fs.modid = o->module_id ? o->module_id : fnv64(m->src, m->srclen);
  fs.scope.module = ptx_scope_scan(m, st);
  beside *after = calloc((size_t)m->items.n + 1, sizeof *after);
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    if (it->kind == IT_FUNC && !it->func->is_decl) after[i] = instrument_function(&fs, it->func);
  }
  st->sites = ptx_sites_count(fs.sites);
  /* support code after the header directives, site table at the end */
  ptx_vec items = {0};
  int placed = 0;
  for (int i = 0; i < m->items.n; i++) {
    ptx_item *it = m->items.v[i];
    int header = it->kind == IT_STMT && it->stmt->kind == ST_DIRECTIVE &&
                 (ptx_tok_is(&it->stmt->toks[0], ".version") || ptx_tok_is(&it->stmt->toks[0], ".target") ||
                  ptx_tok_is(&it->stmt->toks[0], ".address_size"));
    if (!placed && !header) {
      ptx_vec_push(&items, text_item(m, ptx_support_text()));
      if (fs.heap.used) ptx_vec_push(&items, text_item(m, ptx_heap_decls(m->arena, fs.heap.used)));
      placed = 1;
    }
    ptx_vec_push(&items, it);
    ptx_func *copies[2] = {after[i].copy, after[i].proven};
    for (int k = 0; k < 2; k++) {
      if (!copies[k]) continue;
      ptx_item *c = ptx_alloc(m->arena, sizeof *c);
      c->kind = IT_FUNC;
      c->func = copies[k];
      ptx_vec_push(&items, c);
    }
    if (after[i].facts) ptx_vec_push(&items, text_item(m, after[i].facts));
  }
  free(after);
  if (!placed) ptx_vec_push(&items, text_item(m, ptx_support_text()));
  if (fs.heap.used) ptx_vec_push(&items, text_item(m, ptx_heap_defs(m->arena, fs.heap.used)));
  ptx_vec_push(&items, text_item(m, ptx_sites_decl(m->arena, fs.sites, fs.modid)));
  ptx_vec_free(&m->items);
  m->items = items;
  ptx_sites_free(fs.sites);
  free(fs.c);
  free(fs.site_log.id);
  free(fs.roots);
  ptx_vec_free(&fs.heap.calls);
  return 0;
}

