#include "core/semantic/tmeta.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct mnode *node_new(struct tmeta *m)
{
	struct mnode *n = xcalloc(1, sizeof(*n));
	m->pool = xrealloc(m->pool, (m->npool + 1) * sizeof(*m->pool));
	m->pool[m->npool++] = n;
	return n;
}

static int parse_type(const char **p, struct mtype *t)
{
	const char *s = *p;
	if (!strchr("iubpfvs", *s) || !s[0])
		return -1;
	t->cls = *s++;
	char *end;
	long bits = strtol(s, &end, 10);
	if (end == s)
		return -1;
	t->bits = (int)bits;
	*p = end;
	return 0;
}

static void skip_spaces(const char **p)
{
	while (**p == ' ')
		(*p)++;
}

static struct mnode *parse_tree(struct tmeta *m, const char **p, int depth)
{
	const char *s = *p;
	skip_spaces(&s);
	if (*s != '(' || depth > 2000)
		return NULL;
	s++;
	struct mnode *n = node_new(m);
	n->op = *s++;
	if (!n->op || !strchr("krcwubqxos", n->op) || *s != ' ')   /* strchr finds the '\0' too */
		return NULL;
	skip_spaces(&s);
	char *end;
	switch (n->op) {
	case 'k':
		if (*s == '-')
			n->v = (unsigned long long)strtoll(s, &end, 10);
		else
			n->v = strtoull(s, &end, 10);
		if (end == s)
			return NULL;
		s = end;
		skip_spaces(&s);
		if (parse_type(&s, &n->t) < 0)
			return NULL;
		break;
	case 'r': case 'c': case 'w':
		n->v = strtoull(s, &end, 10);
		if (end == s)
			return NULL;
		s = end;
		skip_spaces(&s);
		if (parse_type(&s, &n->t) < 0)
			return NULL;
		break;
	case 'u': case 'b': {
		size_t k = 0;
		while (*s && *s != ' ' && k < sizeof(n->sym) - 1)
			n->sym[k++] = *s++;
		skip_spaces(&s);
		if (parse_type(&s, &n->t) < 0)
			return NULL;
		for (int i = 0; i < (n->op == 'u' ? 1 : 2); i++)
			if (!(n->k[i] = parse_tree(m, &s, depth + 1)))
				return NULL;
		break;
	}
	case 'q': case 'x':
		if (parse_type(&s, &n->t) < 0)
			return NULL;
		for (int i = 0; i < (n->op == 'q' ? 3 : 1); i++)
			if (!(n->k[i] = parse_tree(m, &s, depth + 1)))
				return NULL;
		break;
	case 'o': case 's':   /* opaque; a string literal */
		if (parse_type(&s, &n->t) < 0)
			return NULL;
		break;
	}
	skip_spaces(&s);
	if (*s != ')')
		return NULL;
	*p = s + 1;
	return n;
}

static void site_clear(struct msite *s)
{
	free(s->name);
	free(s->text);
	free(s->kindname);
	free(s->show);
	free(s->then_names);
	free(s->else_names);
	free(s->out);
	free(s->args);
	free(s->check);
	memset(s, 0, sizeof(*s));
}

/* The site with this id, empty: a line naming an id already defined
 * replaces it (a damaged file), its strings freed. */
static struct msite *site_at(struct tmeta *m, unsigned id)
{
	if (id >= m->nids) {
		unsigned n = id + 1 > 2 * m->nids ? id + 1 : 2 * m->nids;
		m->site = xrealloc(m->site, n * sizeof(*m->site));
		memset(m->site + m->nids, 0, (n - m->nids) * sizeof(*m->site));
		m->nids = n;
	}
	site_clear(&m->site[id]);
	return &m->site[id];
}

/* A site id from a line: ids are dense (one line each), so none can be
 * larger than the text is long; a damaged file cannot make us allocate more. */
static int site_id(const char *s, size_t len, unsigned *id)
{
	char *end;
	if (!s)
		return -1;   /* a record cut short */
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (end == s || *end || errno || s[0] == '-' || v >= len || v >= UINT32_MAX)
		return -1;
	*id = (unsigned)v;
	return 0;
}

/* The records defining a site (statement, name, parameter, read, write,
 * branch, return, call) and the fields each needs at least. */
static const char site_kinds[] = "SNPRWBTC";
static const int site_fields[] = {9, 6, 6, 5, 6, 7, 6, 7};

static struct msite *site_record(struct tmeta *m, char *const *f, int nf, int need, size_t len)
{
	unsigned id;
	if (nf < need || site_id(f[1], len, &id) < 0)
		return NULL;
	struct msite *st = site_at(m, id);
	st->kind = f[0][0];
	return st;
}

/* A site an earlier record defined, or NULL. */
static struct msite *site_known(struct tmeta *m, const char *s, size_t len)
{
	unsigned id;
	return site_id(s, len, &id) == 0 && id < m->nids ? &m->site[id] : NULL;
}

static char *names(const char *s)
{
	return xstrdup(strcmp(s, "-") ? s : "");
}

int tmeta_parse(struct tmeta *m, const char *text, size_t len, struct cerr *e)
{
	memset(m, 0, sizeof(*m));
	const char *p = text, *end = text + len;
	int lineno = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		p += n + (nl != NULL);
		lineno++;
		char *f[10] = {0};
		int nf = 0;
		for (char *s = line; nf < 10; nf++) {
			f[nf] = s;
			char *tab = nf < 9 ? strchr(s, '\t') : NULL;
			if (!tab) {
				nf++;
				break;
			}
			*tab = '\0';
			s = tab + 1;
		}
		int bad = 0;
		struct msite *st = NULL;
		const char *tp;
		/* A record defining a site: its fields and id checked here, once. */
		const char *k = line[0] ? strchr(site_kinds, line[0]) : NULL;
		if (k && !(st = site_record(m, f, nf, site_fields[k - site_kinds], len)))
			bad = 1;
		switch (bad ? '\0' : line[0]) {
		case 'F':
			if (nf < 3) {
				bad = 1;
				break;
			}
			m->files = xrealloc(m->files, (m->nfiles + 1) * sizeof(*m->files));
			m->files[m->nfiles++] = xstrdup(f[2]);
			break;
		case 'S':
			st->sid = (unsigned)(st - m->site);
			st->file = atoi(f[2]);
			st->line = atoi(f[3]);
			st->fid = (unsigned)atoi(f[4]);
			st->s = (unsigned)strtoul(f[5], NULL, 10);
			st->e = (unsigned)strtoul(f[6], NULL, 10);
			st->kindname = xstrdup(f[7]);
			st->text = xstrdup(f[8]);
			break;
		case 'N':
			st->file = atoi(f[2]);
			st->line = atoi(f[3]);
			st->name = xstrdup(f[4]);
			tp = f[5];
			bad = parse_type(&tp, &st->t) < 0;
			st->text = xstrdup(nf > 6 ? f[6] : "");
			break;
		case 'P':
			st->fid = (unsigned)atoi(f[2]);
			st->idx = atoi(f[3]);
			tp = f[4];
			bad = parse_type(&tp, &st->t) < 0;
			st->name = xstrdup(f[5]);
			break;
		case 'R':
		case 'W':
			st->sid = (unsigned)atoi(f[2]);
			tp = f[3];
			bad = parse_type(&tp, &st->t) < 0;
			st->name = xstrdup(f[4]);
			if (line[0] == 'W') {
				tp = f[5];
				bad |= !(st->tree = parse_tree(m, &tp, 0));
				st->text = xstrdup(nf > 6 ? f[6] : st->name);
			}
			break;
		case 'B':
			st->sid = (unsigned)atoi(f[2]);
			st->kindname = xstrdup(f[3]);
			tp = f[4];
			bad = !(st->tree = parse_tree(m, &tp, 0));
			st->then_names = names(f[5]);
			st->else_names = names(f[6]);
			st->jumps_then = nf > 7 && strchr(f[7], 't') != NULL;
			st->jumps_else = nf > 7 && strchr(f[7], 'e') != NULL;
			break;
		case 'T':
			st->sid = (unsigned)atoi(f[2]);
			st->fid = (unsigned)atoi(f[3]);
			tp = f[4];
			bad = parse_type(&tp, &st->t) < 0;
			tp = f[5];
			bad |= !(st->tree = parse_tree(m, &tp, 0));
			break;
		case 'C':
			st->sid = (unsigned)atoi(f[2]);
			st->name = xstrdup(f[3]);
			tp = f[4];
			bad = parse_type(&tp, &st->t) < 0;
			st->nargs = atoi(f[5]);
			if (st->nargs < 0 || st->nargs > 4096)
				bad = 1;
			else
				st->args = xcalloc((size_t)st->nargs + 1, sizeof(*st->args));
			st->out = strcmp(f[6], "-") ? xstrdup(f[6]) : NULL;
			break;
		case 'A': {
			if (nf < 4) {
				bad = 1;
				break;
			}
			int i = atoi(f[2]);
			st = site_known(m, f[1], len);
			if (!st || st->kind != 'C' || i < 0 || i >= st->nargs) {
				bad = 1;
				break;
			}
			tp = f[3];
			bad = !(st->args[i] = parse_tree(m, &tp, 0));
			break;
		}
		case 'X': {
			if (nf < 4) {
				bad = 1;
				break;
			}
			st = site_known(m, f[1], len);
			if (!st || !st->kind) {
				bad = 1;
				break;
			}
			free(st->check);
			st->check = xstrdup(f[2]);
			tp = f[3];
			bad = !(st->check_tree = parse_tree(m, &tp, 0));
			break;
		}
		case 'Y':   /* how a value shows (display only) */
			st = site_known(m, f[1], len);
			if (nf < 3 || !st || !st->kind) {
				bad = 1;
				break;
			}
			free(st->show);
			st->show = nf > 3 ? xasprintf("%s\t%s", f[2], f[3]) : xstrdup(f[2]);
			break;
		case '\0':
			break;
		default:
			bad = 1;
		}
		free(line);
		if (bad) {
			tmeta_release(m);
			return cerr_set(e, "trace metadata line %d: malformed", lineno);
		}
	}
	return 0;
}

int tmeta_load(struct tmeta *m, const char *path, struct cerr *e)
{
	struct buf b = BUF_INIT;
	if (file_read(path, &b, (size_t)1 << 30, e) < 0)
		return -1;
	int rc = tmeta_parse(m, b.s ? b.s : "", b.len, e);
	buf_release(&b);
	return rc;
}

void tmeta_release(struct tmeta *m)
{
	for (size_t i = 0; i < m->nfiles; i++)
		free(m->files[i]);
	free(m->files);
	for (unsigned i = 0; i < m->nids; i++)
		site_clear(&m->site[i]);
	free(m->site);
	for (size_t i = 0; i < m->npool; i++)
		free(m->pool[i]);
	free(m->pool);
	memset(m, 0, sizeof(*m));
}

const struct msite *tmeta_site(const struct tmeta *m, unsigned id)
{
	return id < m->nids && m->site[id].kind ? &m->site[id] : NULL;
}

const struct msite *tmeta_stmt(const struct tmeta *m, unsigned id)
{
	const struct msite *s = tmeta_site(m, id);
	if (!s)
		return NULL;
	if (s->kind == 'S')
		return s;
	if (s->kind == 'N' || s->kind == 'P')
		return NULL;
	return tmeta_site(m, s->sid);
}

int tmeta_names_has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (len == n && !memcmp(p, name, n))
			return 1;
		if (!c)
			break;
		p = c + 1;
	}
	return 0;
}

void tmeta_tree_str(const struct mnode *n, struct buf *b)
{
	if (!n) {
		buf_adds(b, "?");
		return;
	}
	buf_addf(b, "(%c", n->op);
	if (n->op == 'u' || n->op == 'b')
		buf_addf(b, " %s", n->sym);
	if (n->op == 'k')
		buf_addf(b, " %lld", (long long)n->v);
	if (n->op == 'r' || n->op == 'c' || n->op == 'w')
		buf_addf(b, " %llu", n->v);
	buf_addf(b, " %c%d", n->t.cls, n->t.bits);
	for (int i = 0; i < 3 && n->k[i]; i++) {
		buf_addc(b, ' ');
		tmeta_tree_str(n->k[i], b);
	}
	buf_addc(b, ')');
}

void tmeta_show_value(const struct msite *s, unsigned long long v, int is_signed, struct buf *b)
{
	const char *show = s ? s->show : NULL;
	if (s && s->t.cls == 'f' && (s->t.bits == 32 || s->t.bits == 64)) {   /* a float's or double's bits */
		double d;
		if (s->t.bits == 32) {
			unsigned u32 = (unsigned)v;
			float fl;
			memcpy(&fl, &u32, 4);
			d = fl;
		} else {
			memcpy(&d, &v, 8);
		}
		buf_addf(b, "%g", d);
		return;
	}
	if (show && !strcmp(show, "char")) {
		unsigned char c = (unsigned char)v;
		static const char esc[] = "\a\b\f\n\r\t\v\\\'", name[] = "abfnrtv\\'";
		const char *k = c ? strchr(esc, c) : NULL;
		if (!c)
			buf_adds(b, "'\\0'");
		else if (k)
			buf_addf(b, "'\\%c'", name[k - esc]);
		else if (c >= ' ' && c < 127)
			buf_addf(b, "'%c'", c);
		else
			buf_addf(b, "'\\x%02x'", c);
		return;
	}
	if (show && !strncmp(show, "enum\t", 5)) {
		long long want = is_signed ? (long long)v : (long long)(unsigned long long)v;
		for (const char *p = show + 5; *p;) {
			const char *eq = strchr(p, '='), *comma = strchr(p, ',');
			if (!eq)
				break;
			if (strtoll(eq + 1, NULL, 10) == want) {
				buf_addf(b, "%.*s", (int)(eq - p), p);
				return;
			}
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	if (is_signed)
		buf_addf(b, "%lld", (long long)v);
	else
		buf_addf(b, "%llu", v);
}
