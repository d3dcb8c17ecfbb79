/* report-html.c - the pieces of the report's page: escaped text, figures
 * as embedded PNGs, labels of a study's inputs, platforms and strategies
 * (see report-private.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-private.h"
#include "util/utf8.h"

plot_unit rep_unit_of(const field *f)
{
  if (!f)
    return PLOT_NUMBER;
  return f->unit == FIELD_SECONDS ? PLOT_SECONDS : f->unit == FIELD_JOULES ? PLOT_JOULES
                                                                          : PLOT_NUMBER;
}

/* The field a column name ("pre_hop_bytes", "makespan_s") comes from. */
const field *rep_column_field(const char *column)
{
  const char *name = column;
  const field *f = metrics_fields;
  int n = metrics_nfields;
  if (g_str_has_prefix(column, "pre_"))
    name = column + 4;
  else if (g_str_has_prefix(column, "post_"))
    name = column + 5;
  else {
    f = run_replay_fields;
    n = run_replay_nfields;
  }
  for (int i = 0; i < n; i++)
    if (strcmp(f[i].name, name) == 0)
      return &f[i];
  return NULL;
}

/* Does any cell of the study carry this column? */
gboolean rep_has_column(const study *s, const char *column)
{
  for (int i = 0; i < s->ncells; i++)
    if (s->cells[i].row && row_find(s->cells[i].row, column) >= 0)
      return TRUE;
  return FALSE;
}

void html_text(GString *h, const char *text)
{
  g_autofree char *u = utf8_escape(text);
  g_autofree char *e = g_markup_escape_text(u, -1);
  g_string_append(h, e);
}

void html_printf(GString *h, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  g_autofree char *t = g_strdup_vprintf(fmt, ap);
  va_end(ap);
  html_text(h, t);
}

void rep_value_text(char *buf, size_t n, const char *column, double v)
{
  plot_format_digits(buf, n, v, rep_unit_of(rep_column_field(column)), 5);
}

gboolean html_figure(rep_page *pg, const char *stem, const char *caption, GError **error)
{
  /* the PNG has more pixels than the figure's size, which its SVG states */
  g_autofree char *svg_name = g_strconcat(stem, ".svg", NULL);
  g_autofree char *svg = g_build_filename(pg->figdir, svg_name, NULL);
  g_autofree char *svg_text = NULL;
  if (!g_file_get_contents(svg, &svg_text, NULL, error))
    return FALSE;
  const char *w = strstr(svg_text, " width=\"");
  int width = w ? atoi(w + 8) : 800;
  GString *h = pg->h;
  g_string_append_printf(h, "<figure><img width=\"%d\" alt=\"", width);
  html_text(h, caption);
  g_string_append_printf(h, "\" src=\"data:image/png;base64," PNG_MARK "%s@@\"><figcaption>",
                         stem);
  html_text(h, caption);
  g_string_append_printf(h, " <a href=\"figures/%s.svg\">SVG</a> <a href=\"figures/%s.png\">PNG</a>"
                         "</figcaption></figure>\n", stem, stem);
  return TRUE;
}

void rep_section_open(rep_page *pg, const char *id, const char *title, const char *gist,
                      gboolean open)
{
  g_string_append_printf(pg->h, "<details id=\"%s\"%s><summary><h2>", id, open ? " open" : "");
  html_text(pg->h, title);
  g_string_append(pg->h, "</h2>");
  if (gist) {
    g_string_append(pg->h, " <span class=\"gist\">");
    html_text(pg->h, gist);
    g_string_append(pg->h, "</span>");
  }
  g_string_append(pg->h, "</summary>\n");
}

void rep_section_close(rep_page *pg)
{
  g_string_append(pg->h, "</details>\n");
}

char *rep_stem(rep_page *pg, const char *kind, const char *const *parts)
{
  GString *t = g_string_new(kind);
  for (int i = 0; parts && parts[i]; i++) {
    g_string_append_c(t, '_');
    gboolean dash = FALSE;
    for (const char *c = parts[i]; *c; c++) {
      gboolean keep = g_ascii_isalnum(*c) || *c == '.' || *c == '+' || *c == '-';
      if (keep)
        g_string_append_c(t, *c);
      else if (!dash)
        g_string_append_c(t, '-');
      dash = !keep;
    }
  }
  char *stem = g_strdup(t->str);
  for (int k = 2; g_hash_table_contains(pg->stems, stem); k++) {
    g_free(stem);
    stem = g_strdup_printf("%s-%d", t->str, k);
  }
  g_hash_table_add(pg->stems, g_strdup(stem));
  g_string_free(t, TRUE);
  return stem;
}

const char *rep_model_label(const study *s, int model)
{
  return model >= 0 ? s->models[model]->name : "static";
}

char *rep_context_label(const study *s, int input, int kind, int model)
{
  const study_input *in = &s->inputs[input];
  GString *t = g_string_new(in->label);
  if (in->t)
    g_string_append_printf(t, ", model %s", rep_model_label(s, model));
  else
    g_string_append(t, " (matrix, static)");
  if (kind >= 0 && in->nkinds > 1)
    g_string_append_printf(t, ", mapped by %s", study_kind_name(in->kinds[kind]));
  return g_string_free(t, FALSE);
}

const char **rep_platform_labels(const study *s)
{
  const char **v = g_new(const char *, MAX(s->nplatforms, 1));
  for (int p = 0; p < s->nplatforms; p++)
    v[p] = s->platforms[p].label;
  return v;
}

const char **rep_strategy_labels(const study *s)
{
  const char **v = g_new(const char *, MAX(s->nstrategies, 1));
  for (int i = 0; i < s->nstrategies; i++)
    v[i] = s->strategies[i].label;
  return v;
}

void html_platform_heads(GString *h, const study *s, const char *after)
{
  for (int p = 0; p < s->nplatforms; p++) {
    g_string_append(h, "<th>");
    html_text(h, s->platforms[p].label);
    g_string_append_printf(h, "%s</th>", after);
  }
  g_string_append(h, "</tr>\n");
}

