/* goal.c - GOAL schedules (goal.h): the builder, the parser of GOAL text
 * (the grammar of LogGOPSim's txt2bin.re, read as tokens), the writer and
 * the graph of the sends.
 *
 * The parser reads the whole file (budget_read_text), walks it as tokens
 * (words, numbers, "-1", ':', '{', '}', line ends; comments skipped) and
 * appends to the builder: operations to one flat array, dependencies to a
 * list of edges that goal_finish() sorts into the two CSR lists, keeping
 * each operation's waiters in file order (a counting sort). Labels live in
 * a GStringChunk and a GHashTable emptied at each rank's '}': nothing is
 * allocated per operation but the growth of those arrays.
 */
#include "traces/goal.h"

#include <errno.h>
#include <string.h>

#include "util/budget.h"
#include "util/checked.h"

G_DEFINE_QUARK(goal-error-quark, goal_error)

/* A dependency before goal_finish(): `tail` (within the rank of `head`)
 * waits for the global operation `head`. */
typedef struct goal_edge {
  int64_t head;
  uint32_t tail;
  uint8_t start_only;
} goal_edge;

/* The builder's state, behind the public struct. */
typedef struct goal_full {
  goal g;
  int64_t ops_cap;
  goal_edge *edges;
  int64_t nedges, edges_cap;
  int cur_rank;          /* the rank operations go to, -1 before the first */
} goal_full;

/* ---- the builder ---- */

goal *goal_new(int nranks)
{
  goal_full *f = g_new0(goal_full, 1);
  f->g.nranks = nranks;
  f->g.first = g_new0(int64_t, (gsize)nranks + 1);
  f->cur_rank = -1;
  return &f->g;
}

/* Bytes the builder holds with `ops` operation slots and `edges` edge
 * slots, FALSE when that overflows or exceeds the budget. */
static gboolean fits(const goal_full *f, int64_t ops, int64_t edges, GError **error)
{
  int64_t a, b, total;
  if (!checked_mul_i64(ops, (int64_t)(sizeof(goal_op) + sizeof(uint32_t)), &a) ||
      !checked_mul_i64(edges, (int64_t)sizeof(goal_edge), &b) || !checked_add_i64(a, b, &total) ||
      !checked_add_i64(total, (int64_t)f->g.nranks * 8, &total))
    total = INT64_MAX;
  return budget_check_memory("a GOAL schedule", (uint64_t)total, error);
}

int64_t goal_add_op(goal *g, int rank, const goal_op *op, GError **error)
{
  goal_full *f = (goal_full *)g;
  g_return_val_if_fail(rank >= f->cur_rank && rank < g->nranks, -1);
  for (; f->cur_rank < rank; f->cur_rank++)
    g->first[f->cur_rank + 1] = g->nops;
  if (g->nops == f->ops_cap) {
    int64_t cap = MAX(f->ops_cap * 2, 64);
    if (!fits(f, cap, f->edges_cap, error))
      return -1;
    g->ops = g_renew(goal_op, g->ops, (gsize)cap);
    g->ndeps = g_renew(uint32_t, g->ndeps, (gsize)cap);
    f->ops_cap = cap;
  }
  g->ops[g->nops] = *op;
  g->ndeps[g->nops] = 0;
  g->max_cpu = MAX(g->max_cpu, op->cpu);
  g->max_nic = MAX(g->max_nic, op->nic);
  return g->nops++ - g->first[rank];
}

gboolean goal_add_dep(goal *g, uint32_t tail, uint32_t head, gboolean start_only,
                      GError **error)
{
  goal_full *f = (goal_full *)g;
  int64_t base = g->first[f->cur_rank];
  g_return_val_if_fail(f->cur_rank >= 0 && base + tail < g->nops && base + head < g->nops,
                       FALSE);
  if (f->nedges == f->edges_cap) {
    int64_t cap = MAX(f->edges_cap * 2, 64);
    if (!fits(f, f->ops_cap, cap, error))
      return FALSE;
    f->edges = g_renew(goal_edge, f->edges, (gsize)cap);
    f->edges_cap = cap;
  }
  f->edges[f->nedges++] = (goal_edge){ .head = base + head, .tail = tail,
                                       .start_only = start_only ? 1 : 0 };
  g->ndeps[base + tail]++;
  return TRUE;
}

/* One CSR list from the edges of one kind: a counting sort by head, stable. */
static void build_csr(goal_full *f, uint8_t start_only, int64_t **xadj, uint32_t **adj)
{
  goal *g = &f->g;
  int64_t *x = g_new0(int64_t, (gsize)g->nops + 1);
  for (int64_t e = 0; e < f->nedges; e++)
    if (f->edges[e].start_only == start_only)
      x[f->edges[e].head + 1]++;
  for (int64_t i = 0; i < g->nops; i++)
    x[i + 1] += x[i];
  uint32_t *a = g_new(uint32_t, (gsize)MAX(x[g->nops], 1));
  int64_t *fill = g_memdup2(x, sizeof(int64_t) * (gsize)g->nops);
  for (int64_t e = 0; e < f->nedges; e++)
    if (f->edges[e].start_only == start_only)
      a[fill[f->edges[e].head]++] = f->edges[e].tail;
  g_free(fill);
  *xadj = x;
  *adj = a;
}

gboolean goal_finish(goal *g, GError **error)
{
  goal_full *f = (goal_full *)g;
  for (; f->cur_rank < g->nranks; f->cur_rank++)
    g->first[f->cur_rank + 1] = g->nops;
  f->cur_rank = g->nranks - 1;
  /* the lists: two xadj of nops + 1 and the edges again, beside the edges */
  int64_t need;
  if (!checked_mul_i64(g->nops + 1, 24, &need) ||
      !checked_add_i64(need, f->nedges * (int64_t)(sizeof(uint32_t) + sizeof(goal_edge)), &need) ||
      !checked_add_i64(need, f->ops_cap * (int64_t)sizeof(goal_op), &need))
    need = INT64_MAX;
  if (!budget_check_memory("a GOAL schedule's dependencies", (uint64_t)need, error))
    return FALSE;
  g_free(g->end_xadj);
  g_free(g->after_end);
  g_free(g->start_xadj);
  g_free(g->after_start);
  build_csr(f, 0, &g->end_xadj, &g->after_end);
  build_csr(f, 1, &g->start_xadj, &g->after_start);
  return TRUE;
}

void goal_free(goal *g)
{
  if (!g)
    return;
  goal_full *f = (goal_full *)g;
  g_free(g->ops);
  g_free(g->first);
  g_free(g->end_xadj);
  g_free(g->start_xadj);
  g_free(g->after_end);
  g_free(g->after_start);
  g_free(g->ndeps);
  g_free(f->edges);
  g_free(f);
}

/* ---- tokens ---- */

typedef enum { T_EOF, T_NL, T_WORD, T_INT, T_MINUS1, T_COLON, T_OPEN, T_CLOSE, T_OTHER } tok_type;

typedef struct tok {
  tok_type type;
  const char *s;
  size_t len;
  int line;
} tok;

typedef struct parser {
  const char *path;
  const char *p;
  int line;
  GError **error;
  goal *g;
  int rank;              /* the rank being read, -1 outside ranks */
  GHashTable *labels;    /* label -> index within the rank + 1 */
  GStringChunk *names;
  GString *scratch;
} parser;

static gboolean fail(parser *ps, int line, const char *what, const char *expected)
{
  g_set_error(ps->error, GOAL_ERROR, GOAL_ERROR_PARSE, "%s:%d: %s, expected %s", ps->path, line,
              what, expected);
  return FALSE;
}

/* How a token is named in an error. Caller frees. */
static char *tok_text(const tok *t)
{
  switch (t->type) {
  case T_EOF:
    return g_strdup("the end of the file");
  case T_NL:
    return g_strdup("the end of the line");
  case T_OTHER:
    if (g_ascii_isprint(*t->s))
      return g_strdup_printf("'%c'", *t->s);
    return g_strdup_printf("byte 0x%02x", (unsigned)(unsigned char)*t->s);
  default:
    return g_strdup_printf("'%.*s%s'", (int)MIN(t->len, 40), t->s, t->len > 40 ? "..." : "");
  }
}

static gboolean unexpected(parser *ps, const tok *t, const char *expected)
{
  g_autofree char *what = tok_text(t);
  return fail(ps, t->line, what, expected);
}

/* The next token; FALSE (and the error) only for a comment never closed. */
static gboolean next(parser *ps, tok *t)
{
  for (;;) {
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
      ps->p++;
    if (ps->p[0] == '/' && ps->p[1] == '/') {
      while (*ps->p && *ps->p != '\n')
        ps->p++;
      continue;
    }
    if (ps->p[0] == '/' && ps->p[1] == '*') {
      int opened = ps->line;
      ps->p += 2;
      while (*ps->p && !(ps->p[0] == '*' && ps->p[1] == '/'))
        if (*ps->p++ == '\n')
          ps->line++;
      if (!*ps->p)
        return fail(ps, opened, "a comment '/*' never closed", "'*/'");
      ps->p += 2;
      continue;
    }
    break;
  }
  const char *s = ps->p;
  *t = (tok){ .s = s, .len = 1, .line = ps->line };
  if (*s == '\0') {
    t->type = T_EOF;
    t->len = 0;
    return TRUE;
  }
  if (*s == '\n') {
    t->type = T_NL;
    ps->line++;
  } else if (g_ascii_isdigit(*s)) {
    t->type = T_INT;
    while (g_ascii_isdigit(s[t->len]))
      t->len++;
  } else if (s[0] == '-' && s[1] == '1' && !g_ascii_isdigit(s[2])) {
    t->type = T_MINUS1;
    t->len = 2;
  } else if (g_ascii_isalpha(*s)) {
    t->type = T_WORD;
    while (g_ascii_isalnum(s[t->len]) || s[t->len] == '_')
      t->len++;
  } else {
    t->type = *s == ':' ? T_COLON : *s == '{' ? T_OPEN : *s == '}' ? T_CLOSE : T_OTHER;
  }
  ps->p += t->len;
  return TRUE;
}

static gboolean is_word(const tok *t, const char *w)
{
  return t->type == T_WORD && t->len == strlen(w) && memcmp(t->s, w, t->len) == 0;
}

/* An INT token as a number no larger than `max`. */
static gboolean number(parser *ps, const tok *t, uint64_t max, const char *expected, uint64_t *out)
{
  if (t->type != T_INT)
    return unexpected(ps, t, expected);
  uint64_t v = 0;
  for (size_t i = 0; i < t->len; i++) {
    uint64_t digit = (uint64_t)(t->s[i] - '0');
    if (digit > max || v > (max - digit) / 10)
      return unexpected(ps, t, expected);
    v = v * 10 + digit;
  }
  *out = v;
  return TRUE;
}

/* ---- the grammar ---- */

/* The label of token `t` as a key of ps->labels: copied to the scratch. */
static const char *label_key(parser *ps, const tok *t)
{
  g_string_truncate(ps->scratch, 0);
  g_string_append_len(ps->scratch, t->s, (gssize)t->len);
  return ps->scratch->str;
}

static gboolean define_label(parser *ps, const tok *label, int64_t index)
{
  const char *key = label_key(ps, label);
  if (g_hash_table_contains(ps->labels, key)) {
    g_autofree char *what = g_strdup_printf("label '%s' defined twice in rank %d", key, ps->rank);
    return fail(ps, label->line, what, "each label once per rank");
  }
  g_hash_table_insert(ps->labels, g_string_chunk_insert(ps->names, key),
                      GSIZE_TO_POINTER((gsize)index + 1));
  return TRUE;
}

static gboolean find_label(parser *ps, const tok *label, uint32_t *index)
{
  if (label->type != T_WORD)
    return unexpected(ps, label, "a label");
  gpointer v = g_hash_table_lookup(ps->labels, label_key(ps, label));
  if (!v) {
    g_autofree char *what =
      g_strdup_printf("label '%s' not defined in rank %d", ps->scratch->str, ps->rank);
    return fail(ps, label->line, what, "a label defined above in the same rank");
  }
  *index = (uint32_t)(GPOINTER_TO_SIZE(v) - 1);
  return TRUE;
}

/* The end of an item: a line end or the end of the file. */
static gboolean end_of_item(parser *ps, const tok *t, const char *expected)
{
  return t->type == T_NL || t->type == T_EOF ? TRUE : unexpected(ps, t, expected);
}

/* A small unsigned option value (cpu, nic: LogGOPSim keeps 8 bits). */
static gboolean option_u8(parser *ps, uint8_t *out)
{
  tok t;
  uint64_t v;
  if (!next(ps, &t) || !number(ps, &t, 255, "a number from 0 to 255", &v))
    return FALSE;
  *out = (uint8_t)v;
  return TRUE;
}

/* The rest of "send", "recv" or "calc" (already read), to the line's end. */
static gboolean operation(parser *ps, goal_kind kind, const tok *label)
{
  goal_op op = { .kind = (uint8_t)kind };
  tok t;
  uint64_t v;
  gboolean comm = kind != GOAL_CALC;
  if (!next(ps, &t) || !number(ps, &t, INT64_MAX, comm ? "a size in bytes" : "a number of time units", &op.size))
    return FALSE;
  if (comm) {
    if (!next(ps, &t))
      return FALSE;
    if (!is_word(&t, "b"))
      return unexpected(ps, &t, "'b' after the size");
    const char *dir = kind == GOAL_SEND ? "to" : "from";
    if (!next(ps, &t))
      return FALSE;
    if (!is_word(&t, dir))
      return unexpected(ps, &t, kind == GOAL_SEND ? "'to'" : "'from'");
    if (!next(ps, &t))
      return FALSE;
    if (kind == GOAL_RECV && t.type == T_MINUS1) {
      op.peer = GOAL_ANY;
    } else {
      g_autofree char *expected = g_strdup_printf("a rank below num_ranks %d%s", ps->g->nranks,
                                                  kind == GOAL_RECV ? " or -1 (any source)" : "");
      if (!number(ps, &t, (uint64_t)ps->g->nranks - 1, expected, &v))
        return FALSE;
      op.peer = (uint32_t)v;
    }
  }
  /* options in txt2bin's order: tag, cpu, nic (calc: cpu only) */
  static const char *const rest[] = { "tag, cpu, nic or the end of the line",
                                      "cpu, nic or the end of the line",
                                      "nic or the end of the line", "the end of the line" };
  int stage = comm ? 0 : 1;
  for (;;) {
    if (!next(ps, &t))
      return FALSE;
    const char *expected = comm ? rest[stage] : stage <= 1 ? "cpu or the end of the line"
                                                           : rest[3];
    if (t.type == T_NL || t.type == T_EOF)
      break;
    if (stage == 0 && is_word(&t, "tag")) {
      if (!next(ps, &t))
        return FALSE;
      if (t.type == T_MINUS1)
        op.tag = GOAL_ANY;
      else if (!number(ps, &t, GOAL_ANY - 1, "a tag from 0 to 4294967294 or -1 (any tag)", &v))
        return FALSE;
      else
        op.tag = (uint32_t)v;
      stage = 1;
    } else if (stage <= 1 && is_word(&t, "cpu")) {
      if (!option_u8(ps, &op.cpu))
        return FALSE;
      stage = 2;
    } else if (comm && stage <= 2 && is_word(&t, "nic")) {
      if (!option_u8(ps, &op.nic))
        return FALSE;
      stage = 3;
    } else {
      return unexpected(ps, &t, expected);
    }
  }
  int64_t index = goal_add_op(ps->g, ps->rank, &op, ps->error);
  if (index < 0)
    return FALSE;
  if (index >= (int64_t)UINT32_MAX) {
    g_autofree char *what = g_strdup_printf("rank %d has more than 4294967294 operations", ps->rank);
    return fail(ps, t.line, what, "fewer (LogGOPSim numbers them in 32 bits)");
  }
  return label ? define_label(ps, label, index) : TRUE;
}

/* An item starting with the word `w` inside a rank. */
static gboolean item(parser *ps, const tok *w)
{
  static const char *const expected_item =
    "send, recv, calc, a label, a dependency or '}'";
  if (is_word(w, "send"))
    return operation(ps, GOAL_SEND, NULL);
  if (is_word(w, "recv"))
    return operation(ps, GOAL_RECV, NULL);
  if (is_word(w, "calc"))
    return operation(ps, GOAL_CALC, NULL);
  if (is_word(w, "rank") || is_word(w, "num_ranks"))
    return unexpected(ps, w, expected_item);
  tok t;
  if (!next(ps, &t))
    return FALSE;
  if (t.type == T_COLON) {
    if (!next(ps, &t))
      return FALSE;
    goal_kind k = is_word(&t, "send") ? GOAL_SEND : is_word(&t, "recv") ? GOAL_RECV
                  : is_word(&t, "calc") ? GOAL_CALC : 0;
    if (!k)
      return unexpected(ps, &t, "send, recv or calc after the label");
    return operation(ps, k, w);
  }
  gboolean start_only = is_word(&t, "irequires");
  if (!start_only && !is_word(&t, "requires"))
    return unexpected(ps, &t, "':', requires or irequires after the label");
  uint32_t tail, head;
  tok h;
  if (!find_label(ps, w, &tail) || !next(ps, &h) || !find_label(ps, &h, &head))
    return FALSE;
  if (!next(ps, &t) || !end_of_item(ps, &t, "the end of the line"))
    return FALSE;
  return goal_add_dep(ps->g, tail, head, start_only, ps->error);
}

static gboolean parse_all(parser *ps)
{
  int next_rank = 0;
  tok t;
  for (;;) {
    if (!next(ps, &t))
      return FALSE;
    if (t.type == T_NL)
      continue;
    if (ps->rank >= 0) {
      if (t.type == T_CLOSE) {
        g_hash_table_remove_all(ps->labels);
        g_string_chunk_clear(ps->names);
        ps->rank = -1;
        next_rank++;
        continue;
      }
      if (t.type == T_EOF) {
        g_autofree char *e = g_strdup_printf("'}' closing rank %d", ps->rank);
        return unexpected(ps, &t, e);
      }
      if (t.type != T_WORD)
        return unexpected(ps, &t, "send, recv, calc, a label, a dependency or '}'");
      if (!item(ps, &t))
        return FALSE;
      continue;
    }
    if (!ps->g) {
      uint64_t n;
      if (!is_word(&t, "num_ranks"))
        return unexpected(ps, &t, "num_ranks first");
      if (!next(ps, &t) || !number(ps, &t, BUDGET_MAX_RANKS, "a number of ranks from 1 to 16777216", &n))
        return FALSE;
      if (n == 0)
        return unexpected(ps, &t, "a number of ranks from 1 to 16777216");
      if (!budget_check_array("a GOAL schedule's ranks", n + 1, sizeof(int64_t), ps->error))
        return FALSE;
      ps->g = goal_new((int)n);
      continue;
    }
    g_autofree char *want =
      next_rank < ps->g->nranks
        ? g_strdup_printf("rank %d (ranks in order, as txt2bin reads them)", next_rank)
        : g_strdup_printf("the end of the file after the last rank (num_ranks %d)", ps->g->nranks);
    if (t.type == T_EOF) {
      if (next_rank < ps->g->nranks)
        return unexpected(ps, &t, want);
      return TRUE;
    }
    if (!is_word(&t, "rank") || next_rank >= ps->g->nranks)
      return unexpected(ps, &t, want);
    uint64_t r;
    if (!next(ps, &t) || !number(ps, &t, (uint64_t)next_rank, want, &r))
      return FALSE;
    if (r != (uint64_t)next_rank)
      return unexpected(ps, &t, want);
    if (!next(ps, &t))
      return FALSE;
    if (t.type != T_OPEN)
      return unexpected(ps, &t, "'{' after the rank");
    ps->rank = next_rank;
  }
}

goal *goal_parse(const char *text, const char *path, GError **error)
{
  parser ps = { .path = path, .p = text, .line = 1, .error = error, .rank = -1,
                .labels = g_hash_table_new(g_str_hash, g_str_equal),
                .names = g_string_chunk_new(4096), .scratch = g_string_new(NULL) };
  gboolean ok = parse_all(&ps) && goal_finish(ps.g, error);
  g_hash_table_destroy(ps.labels);
  g_string_chunk_free(ps.names);
  g_string_free(ps.scratch, TRUE);
  if (!ok)
    g_clear_pointer(&ps.g, goal_free);
  return ps.g;
}

goal *goal_read(const char *path, GError **error)
{
  g_autofree char *text = NULL;
  if (!budget_read_text(path, "a GOAL schedule", &text, NULL, error))
    return NULL;
  return goal_parse(text, path, error);
}

/* ---- writing ---- */

static void write_op(const goal_op *op, int64_t label, FILE *f)
{
  fprintf(f, "l%" G_GINT64_FORMAT ": ", label);
  if (op->kind == GOAL_CALC) {
    fprintf(f, "calc %" G_GUINT64_FORMAT, op->size);
    if (op->cpu)
      fprintf(f, " cpu %u", op->cpu);
    fputc('\n', f);
    return;
  }
  gboolean send = op->kind == GOAL_SEND;
  fprintf(f, "%s %" G_GUINT64_FORMAT "b %s ", send ? "send" : "recv", op->size,
          send ? "to" : "from");
  if (op->peer == GOAL_ANY)
    fputs("-1", f);
  else
    fprintf(f, "%u", op->peer);
  if (op->tag == GOAL_ANY)
    fputs(" tag -1", f);
  else
    fprintf(f, " tag %u", op->tag);
  if (op->cpu)
    fprintf(f, " cpu %u", op->cpu);
  if (op->nic)
    fprintf(f, " nic %u", op->nic);
  fputc('\n', f);
}

gboolean goal_write(const goal *g, FILE *f)
{
  fprintf(f, "num_ranks %d\n", g->nranks);
  for (int r = 0; r < g->nranks; r++) {
    fprintf(f, "\nrank %d {\n", r);
    int64_t base = g->first[r];
    for (int64_t i = base; i < g->first[r + 1]; i++)
      write_op(&g->ops[i], i - base + 1, f);
    for (int64_t i = base; i < g->first[r + 1]; i++) {
      for (int64_t e = g->end_xadj[i]; e < g->end_xadj[i + 1]; e++)
        fprintf(f, "l%u requires l%" G_GINT64_FORMAT "\n", g->after_end[e] + 1, i - base + 1);
      for (int64_t e = g->start_xadj[i]; e < g->start_xadj[i + 1]; e++)
        fprintf(f, "l%u irequires l%" G_GINT64_FORMAT "\n", g->after_start[e] + 1, i - base + 1);
    }
    fputs("}\n", f);
  }
  return !ferror(f);
}

/* ---- the graph ---- */

commgraph *goal_graph(const goal *g)
{
  /* one edge per (sender, receiver): the duplicates summed per sender */
  GArray *src = g_array_new(FALSE, FALSE, sizeof(int)), *dst = g_array_new(FALSE, FALSE, sizeof(int));
  GArray *bytes = g_array_new(FALSE, FALSE, sizeof(int64_t)),
         *msgs = g_array_new(FALSE, FALSE, sizeof(int64_t));
  g_autoptr(GHashTable) slot = g_hash_table_new(g_direct_hash, g_direct_equal);
  for (int r = 0; r < g->nranks; r++) {
    g_hash_table_remove_all(slot);
    for (int64_t i = g->first[r]; i < g->first[r + 1]; i++) {
      const goal_op *op = &g->ops[i];
      if (op->kind != GOAL_SEND)
        continue;
      gpointer key = GUINT_TO_POINTER(op->peer + 1);
      gpointer at = g_hash_table_lookup(slot, key);
      int64_t b = (int64_t)MIN(op->size, (uint64_t)INT64_MAX);
      if (!at) {
        int d = (int)op->peer;
        int64_t one = 1;
        g_array_append_val(src, r);
        g_array_append_val(dst, d);
        g_array_append_val(bytes, b);
        g_array_append_val(msgs, one);
        g_hash_table_insert(slot, key, GUINT_TO_POINTER(src->len));
      } else {
        guint k = GPOINTER_TO_UINT(at) - 1;
        int64_t *pb = &g_array_index(bytes, int64_t, k);
        *pb = saturating_add_i64(*pb, b);
        g_array_index(msgs, int64_t, k)++;
      }
    }
  }
  commgraph *cg = commgraph_from_edges(g->nranks, (int)src->len, (int *)src->data,
                                       (int *)dst->data, (int64_t *)bytes->data,
                                       (int64_t *)msgs->data);
  g_array_free(src, TRUE);
  g_array_free(dst, TRUE);
  g_array_free(bytes, TRUE);
  g_array_free(msgs, TRUE);
  return cg;
}
