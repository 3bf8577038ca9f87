#include "core/semantic/interact.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"

#define MAX_SEQS 256

struct st {
	unsigned id, fid;
	int file, line, endline;
	unsigned s, e;
	const char *kind, *text;
	char **reads, **writes, **calls;
	size_t nreads, nwrites, ncalls;
	int returns, output;
	size_t *succ;           /* statements that depend on this one */
	size_t nsucc;
};

struct graph {
	const struct tmeta *m;
	struct st *v;
	size_t n;
	long *of;               /* site id -> statement index, -1 */
	size_t edges;
};

static void push_name(char ***v, size_t *n, const char *s)
{
	if (!s || !*s)
		return;
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (char *)s;
}

static void edge(struct graph *g, size_t from, size_t to)
{
	if (from == to)
		return;
	struct st *a = &g->v[from];
	for (size_t i = 0; i < a->nsucc; i++)
		if (a->succ[i] == to)
			return;
	a->succ = xrealloc(a->succ, (a->nsucc + 1) * sizeof(*a->succ));
	a->succ[a->nsucc++] = to;
	g->edges++;
}

static int has(char **v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* The line of byte offset off in data. */
static int line_at(const char *data, size_t len, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off && i < len; i++)
		line += data[i] == '\n';
	return line;
}

static void build(struct graph *g, const struct tmeta *m, const struct change_set *cs)
{
	g->m = m;
	g->of = xmalloc((m->nids + 1) * sizeof(*g->of));
	for (unsigned i = 0; i <= m->nids; i++)
		g->of[i] = -1;
	for (unsigned id = 1; id <= m->nids; id++) {
		const struct msite *s = tmeta_site(m, id);
		if (!s || s->kind != 'S')
			continue;
		g->v = xrealloc(g->v, (g->n + 1) * sizeof(*g->v));
		struct st *t = &g->v[g->n];
		memset(t, 0, sizeof(*t));
		t->id = id;
		t->fid = s->fid;
		t->file = s->file;
		t->line = t->endline = s->line;
		t->s = s->s;
		t->e = s->e;
		t->kind = s->kindname ? s->kindname : "";
		t->text = s->text ? s->text : "";
		/* Its last line, from the revision's text when the change set has it. */
		const char *path = s->file >= 0 && (size_t)s->file < m->nfiles ? m->files[s->file] : "";
		for (size_t f = 0; f < cs->nfiles; f++)
			if (cs->files[f].new_data && !strcmp(cs->files[f].new_path, path))
				t->endline = line_at(cs->files[f].new_data, cs->files[f].new_len, s->e ? s->e - 1 : 0);
		g->of[id] = (long)g->n++;
	}
	/* What each statement reads, writes, calls, returns and prints. */
	for (unsigned id = 1; id <= m->nids; id++) {
		const struct msite *s = tmeta_site(m, id);
		if (!s || s->kind == 'S' || s->kind == 'N' || s->kind == 'P' || !s->sid || s->sid > m->nids ||
		    g->of[s->sid] < 0)
			continue;
		struct st *t = &g->v[g->of[s->sid]];
		if (s->kind == 'R')
			push_name(&t->reads, &t->nreads, s->name);
		else if (s->kind == 'W')
			push_name(&t->writes, &t->nwrites, s->name);
		else if (s->kind == 'C') {
			push_name(&t->calls, &t->ncalls, s->name);
			t->output |= s->out != NULL;
		} else if (s->kind == 'T')
			t->returns = 1;
		else if (s->kind == 'B' && s->kindname && !strcmp(s->kindname, "assert"))
			t->output = 1;
	}
	for (size_t i = 0; i < g->n; i++) {
		struct st *a = &g->v[i];
		for (size_t j = 0; j < g->n; j++) {
			struct st *b = &g->v[j];
			if (i == j)
				continue;
			/* Data, within a function: a writes what b reads. */
			if (a->fid == b->fid)
				for (size_t k = 0; k < a->nwrites; k++)
					if (has(b->reads, b->nreads, a->writes[k])) {
						edge(g, i, j);
						break;
					}
			/* Control: b is inside a's if, loop or switch. */
			if (a->fid == b->fid && a->file == b->file && b->s > a->s && b->e <= a->e &&
			    (!strcmp(a->kind, "if") || !strcmp(a->kind, "while") || !strcmp(a->kind, "for") ||
			     !strcmp(a->kind, "do") || !strcmp(a->kind, "switch")))
				edge(g, i, j);
		}
	}
	/* Calls: the caller's statement to the callee's statements that read
	 * its parameters; the callee's returns back to the caller. */
	for (unsigned fid = 1; fid <= m->nids; fid++) {
		const struct msite *fn = tmeta_site(m, fid);
		if (!fn || fn->kind != 'N' || !fn->name)
			continue;
		char **params = NULL;
		size_t np = 0;
		for (unsigned id = 1; id <= m->nids; id++) {
			const struct msite *p = tmeta_site(m, id);
			if (p && p->kind == 'P' && p->fid == fid)
				push_name(&params, &np, p->name);
		}
		for (size_t i = 0; i < g->n; i++) {
			if (!has(g->v[i].calls, g->v[i].ncalls, fn->name))
				continue;
			for (size_t j = 0; j < g->n; j++) {
				if (g->v[j].fid != fid)
					continue;
				int reads_param = 0;
				for (size_t k = 0; k < np && !reads_param; k++)
					reads_param = has(g->v[j].reads, g->v[j].nreads, params[k]);
				if (reads_param)
					edge(g, i, j);
				if (g->v[j].returns)
					edge(g, j, i);
			}
		}
		free(params);
	}
}

static void graph_release(struct graph *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].reads);
		free(g->v[i].writes);
		free(g->v[i].calls);
		free(g->v[i].succ);
	}
	free(g->v);
	free(g->of);
}

/* The statements a change touches: those starting on its new lines (or,
 * for a deletion, the one where the text was). */
static void changed(const struct graph *g, const struct change_set *cs, size_t c, struct bits *out)
{
	const struct change *ch = &cs->changes[c];
	const char *path = cs->files[ch->file].new_path;
	int lo = ch->new_start, hi = ch->new_start + ch->new_lines;
	if (ch->new_lines == 0) {
		lo = ch->new_start + 1;
		hi = lo + 1;
	}
	long best = -1;
	for (size_t i = 0; i < g->n; i++) {
		const struct st *t = &g->v[i];
		const char *f = t->file >= 0 && (size_t)t->file < g->m->nfiles ? g->m->files[t->file] : "";
		if (strcmp(f, path))
			continue;
		if (ch->kind == CHANGE_FILE_ADD || (t->line >= lo && t->line < hi))
			bits_set(out, i);
		else if (t->line < lo && t->endline >= lo &&
			 (best < 0 || t->e - t->s < g->v[best].e - g->v[best].s))
			best = (long)i;   /* a statement the change lies inside */
	}
	if (!bits_count(out) && best >= 0)
		bits_set(out, (size_t)best);
}

static size_t find(long *parent, size_t c)
{
	while (parent[c] >= 0 && (size_t)parent[c] != c)
		c = (size_t)parent[c];
	return c;
}

/* Changes that meet at a location form a group, named by its first change. */
static void groups(struct interact *ia)
{
	for (size_t c = 0; c < ia->nchanges; c++)
		ia->group[c] = -1;
	for (size_t k = 0; k < ia->nlocs; k++)
		for (size_t i = 1; i < ia->locs[k].nchanges; i++) {
			size_t a = find(ia->group, ia->locs[k].changes[0]), b = find(ia->group, ia->locs[k].changes[i]);
			if (a != b) {
				size_t lo = a < b ? a : b, hi = a < b ? b : a;
				ia->group[lo] = (long)lo;
				ia->group[hi] = (long)lo;
			}
		}
	for (size_t c = 0; c < ia->nchanges; c++)
		if (ia->group[c] >= 0)
			ia->group[c] = (long)find(ia->group, c);
}

int interact_analyze(struct interact *ia, const struct tmeta *m, const struct change_set *cs)
{
	memset(ia, 0, sizeof(*ia));
	size_t nc = cs->nchanges;
	ia->nchanges = nc;
	ia->group = xmalloc((nc + 1) * sizeof(*ia->group));
	for (size_t c = 0; c < nc; c++)
		ia->group[c] = -1;
	struct graph g = {0};
	build(&g, m, cs);
	ia->stmts = g.n;
	ia->edges = g.edges;
	/* Which changes reach each statement (a fixpoint: loops feed back). */
	struct bits **mask = xcalloc(g.n + 1, sizeof(*mask));
	struct bits **own = xcalloc(nc + 1, sizeof(*own));
	size_t *work = xmalloc((g.n * 4 + 1) * sizeof(*work)), nw = 0, capw = g.n * 4 + 1;
	unsigned char *queued = xcalloc(g.n + 1, 1);
	for (size_t i = 0; i < g.n; i++)
		mask[i] = bits_new(nc + 1);
	for (size_t c = 0; c < nc; c++) {
		own[c] = bits_new(g.n + 1);
		changed(&g, cs, c, own[c]);
		for (size_t i = 0; i < g.n; i++)
			if (bits_test(own[c], i)) {
				bits_set(mask[i], c);
				if (!queued[i]) {
					queued[i] = 1;
					work[nw++] = i;
				}
			}
	}
	while (nw) {
		size_t i = work[--nw];
		queued[i] = 0;
		for (size_t k = 0; k < g.v[i].nsucc; k++) {
			size_t j = g.v[i].succ[k];
			struct bits *before = bits_dup(mask[j]);
			bits_or(mask[j], mask[i]);
			int grew = !bits_equal(before, mask[j]);
			bits_free(before);
			if (grew && !queued[j]) {
				queued[j] = 1;
				if (nw == capw) {
					capw *= 2;
					work = xrealloc(work, capw * sizeof(*work));
				}
				work[nw++] = j;
			}
		}
	}
	/* Interaction locations: where two or more changes first meet (no
	 * statement it depends on carries the same changes). */
	long *loc_of = xmalloc((g.n + 1) * sizeof(*loc_of));
	for (size_t i = 0; i < g.n; i++) {
		loc_of[i] = -1;
		if (bits_count(mask[i]) < 2)
			continue;
		int first = 1;
		for (size_t p = 0; p < g.n && first; p++)
			for (size_t k = 0; k < g.v[p].nsucc && first; k++)
				if (g.v[p].succ[k] == i && bits_equal(mask[p], mask[i]))
					first = 0;
		if (!first)
			continue;
		struct ia_loc l = {0};
		const struct st *t = &g.v[i];
		l.file = xstrdup(t->file >= 0 && (size_t)t->file < m->nfiles ? m->files[t->file] : "?");
		l.line = t->line;
		l.text = xstrdup(t->text);
		for (size_t c = 0; c < nc; c++)
			if (bits_test(mask[i], c)) {
				l.changes = xrealloc(l.changes, (l.nchanges + 1) * sizeof(*l.changes));
				l.changes[l.nchanges++] = c;
			}
		loc_of[i] = (long)ia->nlocs;
		ia->locs = xrealloc(ia->locs, (ia->nlocs + 1) * sizeof(*ia->locs));
		ia->locs[ia->nlocs++] = l;
	}
	groups(ia);
	/* Sequences: change -> location -> output, and change -> output where
	 * no location lies between. */
	struct bits *seen = bits_new(g.n + 1);
	for (size_t c = 0; c < nc && ia->nseqs < MAX_SEQS; c++) {
		/* Forward from the change; a location on the way starts its own leg. */
		bits_zero(seen);
		nw = 0;
		for (size_t i = 0; i < g.n; i++)
			if (bits_test(own[c], i)) {
				bits_set(seen, i);
				work[nw++] = i;
			}
		while (nw && ia->nseqs < MAX_SEQS) {
			size_t i = work[--nw];
			if (loc_of[i] >= 0 && !bits_test(own[c], i)) {
				/* From the location to the outputs it reaches. */
				struct bits *s2 = bits_new(g.n + 1);
				size_t *w2 = xmalloc((g.n + 1) * sizeof(*w2)), n2 = 0;
				w2[n2++] = i;
				bits_set(s2, i);
				while (n2 && ia->nseqs < MAX_SEQS) {
					size_t j = w2[--n2];
					if (g.v[j].output) {
						ia->seqs = xrealloc(ia->seqs, (ia->nseqs + 1) * sizeof(*ia->seqs));
						ia->seqs[ia->nseqs++] = (struct ia_seq){
							c, loc_of[i],
							xstrdup(g.v[j].file >= 0 && (size_t)g.v[j].file < m->nfiles ? m->files[g.v[j].file] : "?"),
							g.v[j].line, xstrdup(g.v[j].text)};
					}
					for (size_t k = 0; k < g.v[j].nsucc; k++)
						if (!bits_test(s2, g.v[j].succ[k])) {
							bits_set(s2, g.v[j].succ[k]);
							w2[n2++] = g.v[j].succ[k];
						}
				}
				bits_free(s2);
				free(w2);
				continue;
			}
			if (g.v[i].output) {
				ia->seqs = xrealloc(ia->seqs, (ia->nseqs + 1) * sizeof(*ia->seqs));
				ia->seqs[ia->nseqs++] = (struct ia_seq){
					c, -1, xstrdup(g.v[i].file >= 0 && (size_t)g.v[i].file < m->nfiles ? m->files[g.v[i].file] : "?"),
					g.v[i].line, xstrdup(g.v[i].text)};
			}
			for (size_t k = 0; k < g.v[i].nsucc; k++)
				if (!bits_test(seen, g.v[i].succ[k])) {
					bits_set(seen, g.v[i].succ[k]);
					if (nw == capw) {
						capw *= 2;
						work = xrealloc(work, capw * sizeof(*work));
					}
					work[nw++] = g.v[i].succ[k];
				}
		}
	}
	bits_free(seen);
	free(loc_of);
	for (size_t i = 0; i < g.n; i++)
		bits_free(mask[i]);
	for (size_t c = 0; c < nc; c++)
		bits_free(own[c]);
	free(mask);
	free(own);
	free(work);
	free(queued);
	graph_release(&g);
	return 0;
}

void interact_release(struct interact *ia)
{
	for (size_t i = 0; i < ia->nlocs; i++) {
		free(ia->locs[i].file);
		free(ia->locs[i].text);
		free(ia->locs[i].changes);
	}
	free(ia->locs);
	for (size_t i = 0; i < ia->nseqs; i++) {
		free(ia->seqs[i].out_file);
		free(ia->seqs[i].out_text);
	}
	free(ia->seqs);
	free(ia->group);
	memset(ia, 0, sizeof(*ia));
}

/* ----------------------------------------------------------------- JSON */

void interact_json(const struct interact *ia, const unsigned *ids, struct buf *b)
{
	buf_addf(b, "{\"statements\": %zu, \"edges\": %zu, \"locations\": [", ia->stmts, ia->edges);
	for (size_t i = 0; i < ia->nlocs; i++) {
		const struct ia_loc *l = &ia->locs[i];
		buf_adds(b, i ? ", {\"file\": " : "{\"file\": ");
		json_str(b, l->file);
		buf_addf(b, ", \"line\": %d, \"text\": ", l->line);
		json_str(b, l->text);
		buf_adds(b, ", \"changes\": [");
		for (size_t k = 0; k < l->nchanges; k++)
			buf_addf(b, "%s\"%u\"", k ? ", " : "", ids[l->changes[k]]);
		buf_adds(b, "]}");
	}
	buf_adds(b, "], \"sequences\": [");
	for (size_t i = 0; i < ia->nseqs; i++) {
		const struct ia_seq *q = &ia->seqs[i];
		buf_addf(b, "%s{\"change\": \"%u\", \"location\": %ld, \"output_file\": ", i ? ", " : "", ids[q->change], q->loc);
		json_str(b, q->out_file);
		buf_addf(b, ", \"output_line\": %d, \"output_text\": ", q->out_line);
		json_str(b, q->out_text);
		buf_adds(b, "}");
	}
	buf_adds(b, "]}");
}

static long index_of(const unsigned *ids, size_t nids, const struct json *v)
{
	if (!v || v->type != JSON_STRING)
		return -1;
	unsigned id = (unsigned)strtoul(v->str, NULL, 10);
	for (size_t i = 0; i < nids; i++)
		if (ids[i] == id)
			return (long)i;
	return -1;
}

int interact_from_json(struct interact *ia, const char *text, size_t len, const unsigned *ids, size_t nids,
		       struct cerr *e)
{
	memset(ia, 0, sizeof(*ia));
	struct json *j = json_parse(text, len, e);
	if (!j)
		return -1;
	ia->stmts = (size_t)json_get_num(j, "statements");
	ia->edges = (size_t)json_get_num(j, "edges");
	ia->nchanges = nids;
	ia->group = xmalloc((nids + 1) * sizeof(*ia->group));
	for (size_t c = 0; c < nids; c++)
		ia->group[c] = -1;
	const struct json *locs = json_get(j, "locations"), *seqs = json_get(j, "sequences");
	for (size_t i = 0; locs && i < locs->n; i++) {
		const struct json *o = locs->kids[i], *ch = json_get(o, "changes");
		struct ia_loc l = {json_get_str(o, "file"), (int)json_get_num(o, "line"), json_get_str(o, "text"), NULL, 0};
		for (size_t k = 0; ch && k < ch->n; k++) {
			long c = index_of(ids, nids, ch->kids[k]);
			if (c < 0)
				continue;
			l.changes = xrealloc(l.changes, (l.nchanges + 1) * sizeof(*l.changes));
			l.changes[l.nchanges++] = (size_t)c;
		}
		ia->locs = xrealloc(ia->locs, (ia->nlocs + 1) * sizeof(*ia->locs));
		ia->locs[ia->nlocs++] = l;
	}
	for (size_t i = 0; seqs && i < seqs->n; i++) {
		const struct json *o = seqs->kids[i];
		long c = index_of(ids, nids, json_get(o, "change"));
		if (c < 0)
			continue;
		ia->seqs = xrealloc(ia->seqs, (ia->nseqs + 1) * sizeof(*ia->seqs));
		ia->seqs[ia->nseqs++] = (struct ia_seq){(size_t)c, (long)json_get_num(o, "location"),
							json_get_str(o, "output_file"), (int)json_get_num(o, "output_line"),
							json_get_str(o, "output_text")};
	}
	groups(ia);
	json_free(j);
	return 0;
}
