#include "keymaps/keymap.h"

#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "keymaps/defaults.inc"

#define KEYMAP_MAX_LINE 1024
#define KEY_ESC 27

struct binding {
	enum keymap_scope scope;
	int keys[2];
	size_t n;
	enum keymap_action action;
};

struct keymap {
	struct binding *v;
	size_t n, cap;
};

static const char *const action_names[KA_COUNT] = {
	"",
#define KEYMAP_NAME(id, name, help) name,
	KEYMAP_ACTIONS(KEYMAP_NAME)
#undef KEYMAP_NAME
};

static const char *const action_helps[KA_COUNT] = {
	"",
#define KEYMAP_HELP(id, name, help) help,
	KEYMAP_ACTIONS(KEYMAP_HELP)
#undef KEYMAP_HELP
};

static const char *const scope_names[KS_COUNT] = {"generic", "diff", "trace", "rank", "tree", "log"};

const char *keymap_action_name(enum keymap_action a)
{
	return (unsigned)a < KA_COUNT ? action_names[a] : "";
}

const char *keymap_action_help(enum keymap_action a)
{
	return (unsigned)a < KA_COUNT ? action_helps[a] : "";
}

enum keymap_action keymap_action_by_name(const char *name)
{
	for (int a = 1; a < KA_COUNT; a++)
		if (!strcmp(action_names[a], name))
			return (enum keymap_action)a;
	return KA_NONE;
}

const char *keymap_scope_name(enum keymap_scope s)
{
	return (unsigned)s < KS_COUNT ? scope_names[s] : "";
}

static int scope_by_name(const char *name)
{
	for (int s = 0; s < KS_COUNT; s++)
		if (!strcmp(scope_names[s], name))
			return s;
	return -1;
}

static const struct {
	const char *name;
	int key;
} named_keys[] = {
	{"Tab", '\t'}, {"S-Tab", KEY_BTAB}, {"Enter", '\n'}, {"Esc", KEY_ESC}, {"Space", ' '},
	{"Backspace", KEY_BACKSPACE}, {"Up", KEY_UP}, {"Down", KEY_DOWN}, {"Left", KEY_LEFT},
	{"Right", KEY_RIGHT}, {"PgUp", KEY_PPAGE}, {"PgDn", KEY_NPAGE}, {"Home", KEY_HOME},
	{"End", KEY_END}, {"Ins", KEY_IC}, {"Del", KEY_DC}, {"lt", '<'},
};

int keymap_key_parse(const char *s)
{
	size_t n = strlen(s);
	if (n == 1 && (unsigned char)s[0] > ' ' && (unsigned char)s[0] < 127 && s[0] != '<')
		return s[0];
	if (n < 3 || s[0] != '<' || s[n - 1] != '>')
		return -1;
	char inner[32];
	if (n - 2 >= sizeof(inner))
		return -1;
	memcpy(inner, s + 1, n - 2);
	inner[n - 2] = '\0';
	for (size_t i = 0; i < sizeof(named_keys) / sizeof(*named_keys); i++)
		if (!strcasecmp(inner, named_keys[i].name))
			return named_keys[i].key;
	if ((inner[0] == 'C' || inner[0] == 'c') && inner[1] == '-' && inner[2] && !inner[3]) {
		char c = inner[2];
		if (c >= 'a' && c <= 'z')
			return c - 'a' + 1;
		if (c >= 'A' && c <= 'Z')
			return c - 'A' + 1;
		return -1;
	}
	if ((inner[0] == 'F' || inner[0] == 'f') && inner[1]) {
		char *end;
		long k = strtol(inner + 1, &end, 10);
		if (!*end && k >= 1 && k <= 12)
			return KEY_F((int)k);
	}
	return -1;
}

const char *keymap_key_name(int key, char buf[16])
{
	if (key == '<') {
		strcpy(buf, "<lt>");
		return buf;
	}
	for (size_t i = 0; i < sizeof(named_keys) / sizeof(*named_keys); i++)
		if (named_keys[i].key == key) {
			snprintf(buf, 16, "<%s>", named_keys[i].name);
			return buf;
		}
	if (key >= 1 && key <= 26) {
		snprintf(buf, 16, "<C-%c>", 'a' + key - 1);
		return buf;
	}
	if (key >= KEY_F(1) && key <= KEY_F(12)) {
		snprintf(buf, 16, "<F%d>", key - KEY_F(0));
		return buf;
	}
	if (key > ' ' && key < 127) {
		buf[0] = (char)key;
		buf[1] = '\0';
		return buf;
	}
	snprintf(buf, 16, "<%d>", key);
	return buf;
}

static struct binding *find(struct keymap *km, enum keymap_scope scope, const int *keys, size_t n)
{
	for (size_t i = 0; i < km->n; i++)
		if (km->v[i].scope == scope && km->v[i].n == n && !memcmp(km->v[i].keys, keys, n * sizeof(int)))
			return &km->v[i];
	return NULL;
}

static void bind(struct keymap *km, enum keymap_scope scope, const int *keys, size_t n, enum keymap_action a)
{
	struct binding *b = find(km, scope, keys, n);
	if (!b) {
		if (km->n == km->cap) {
			km->cap = km->cap ? 2 * km->cap : 64;
			km->v = xrealloc(km->v, km->cap * sizeof(*km->v));
		}
		b = &km->v[km->n++];
		b->scope = scope;
		b->n = n;
		memcpy(b->keys, keys, n * sizeof(int));
	}
	b->action = a;
}

static void unbind(struct keymap *km, enum keymap_scope scope, const int *keys, size_t n)
{
	struct binding *b = find(km, scope, keys, n);
	if (b) {
		*b = km->v[km->n - 1];
		km->n--;
	}
}

struct keymap *keymap_new(enum keymap_style style)
{
	struct keymap *km = xcalloc(1, sizeof(*km));
	keymap_load_string(km, style == KEYMAP_EMACS ? keymap_default_emacs : keymap_default_vi, "(defaults)", NULL,
			   NULL);
	return km;
}

void keymap_free(struct keymap *km)
{
	if (!km)
		return;
	free(km->v);
	free(km);
}

static void warn_line(keymap_warn_fn warn, void *priv, const char *origin, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void warn_line(keymap_warn_fn warn, void *priv, const char *origin, int line, const char *fmt, ...)
{
	if (!warn)
		return;
	struct buf b = BUF_INIT;
	va_list ap;
	buf_addf(&b, "%s:%d: ", origin, line);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	text_sanitize(b.s);   /* the line may hold escape sequences */
	warn(priv, b.s);
	buf_release(&b);
}

/* Split a line into words (at most 8); 0 words for a blank or comment line. */
static size_t words(char *line, char **w)
{
	size_t n = 0;
	for (char *p = strtok(line, " \t\r"); p && n < 8; p = strtok(NULL, " \t\r")) {
		if (*p == '#')
			break;
		w[n++] = p;
	}
	return n;
}

static int apply_line(struct keymap *km, char *line, const char *origin, int lineno, keymap_warn_fn warn, void *priv)
{
	char *w[8];
	size_t n = words(line, w);
	if (n == 0)
		return 0;
	if (!strcmp(w[0], "set")) {
		if (n == 3 && !strcmp(w[1], "keys") && (!strcmp(w[2], "vi") || !strcmp(w[2], "emacs")))
			return lineno == 1 ? 0 : (warn_line(warn, priv, origin, lineno, "%s", "'set keys' must be the first line"), 1);
		warn_line(warn, priv, origin, lineno, "%s", "expected: set keys vi|emacs");
		return 1;
	}
	int isbind = !strcmp(w[0], "bind");
	if (!isbind && strcmp(w[0], "unbind")) {
		warn_line(warn, priv, origin, lineno, "unknown command '%s' (bind, unbind, set)", w[0]);
		return 1;
	}
	size_t nkeys = n - 2 - (size_t)isbind;
	if (n < 3 + (size_t)isbind || nkeys > 2) {
		warn_line(warn, priv, origin, lineno, "%s", isbind ? "expected: bind SCOPE KEYS ACTION" : "expected: unbind SCOPE KEYS");
		return 1;
	}
	int scope = scope_by_name(w[1]);
	if (scope < 0) {
		warn_line(warn, priv, origin, lineno, "unknown scope '%s' (generic, diff, trace, rank, tree, log)", w[1]);
		return 1;
	}
	int keys[2];
	for (size_t i = 0; i < nkeys; i++) {
		keys[i] = keymap_key_parse(w[2 + i]);
		if (keys[i] < 0) {
			warn_line(warn, priv, origin, lineno, "unknown key name '%s'", w[2 + i]);
			return 1;
		}
	}
	if (!isbind) {
		unbind(km, (enum keymap_scope)scope, keys, nkeys);
		return 0;
	}
	enum keymap_action a = keymap_action_by_name(w[n - 1]);
	if (a == KA_NONE) {
		warn_line(warn, priv, origin, lineno, "unknown action '%s'", w[n - 1]);
		return 1;
	}
	/* A key cannot be both a whole binding and the start of a sequence. */
	for (size_t i = 0; i < km->n; i++) {
		const struct binding *b = &km->v[i];
		if ((int)b->scope == scope && b->n != nkeys && b->keys[0] == keys[0])
			unbind(km, b->scope, b->keys, b->n), i--;
	}
	bind(km, (enum keymap_scope)scope, keys, nkeys, a);
	return 0;
}

int keymap_load_string(struct keymap *km, const char *text, const char *origin, keymap_warn_fn warn, void *priv)
{
	int bad = 0, lineno = 0;
	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		lineno++;
		if (len >= KEYMAP_MAX_LINE) {
			warn_line(warn, priv, origin, lineno, "%s", "line too long");
			bad++;
		} else {
			char line[KEYMAP_MAX_LINE];
			memcpy(line, p, len);
			line[len] = '\0';
			bad += apply_line(km, line, origin, lineno, warn, priv);
		}
		p = end ? end + 1 : p + len;
	}
	return bad;
}

int keymap_load_file(struct keymap *km, const char *path, keymap_warn_fn warn, void *priv)
{
	struct buf b = BUF_INIT;
	struct cerr e;
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 0;   /* no file: the defaults */
	/* file_read opens only regular files: a FIFO here must not block. */
	if (file_read(path, &b, 1 << 20, &e) < 0) {
		if (warn)
			warn(priv, e.msg);
		buf_release(&b);
		return 1;
	}
	int bad = keymap_load_string(km, b.s ? b.s : "", path, warn, priv);
	buf_release(&b);
	return bad;
}

char *keymap_default_path(void)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	if (x && *x)
		return xasprintf("%s/culprit/keymap", x);
	const char *home = getenv("HOME");
	return xasprintf("%s/.config/culprit/keymap", home ? home : ".");
}

int keymap_file_style(const char *path)
{
	struct buf b = BUF_INIT;
	int style = -1;
	if (file_read(path, &b, 1 << 20, NULL) == 0 && b.s) {
		char line[64];
		size_t n = strcspn(b.s, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < 63 ? n : 63), b.s);
		char *w[8];
		size_t nw = words(line, w);
		if (nw == 3 && !strcmp(w[0], "set") && !strcmp(w[1], "keys"))
			style = !strcmp(w[2], "emacs") ? KEYMAP_EMACS : !strcmp(w[2], "vi") ? KEYMAP_VI : -1;
	}
	buf_release(&b);
	return style;
}

enum keymap_match keymap_lookup(const struct keymap *km, enum keymap_scope scope, const int *keys, size_t n,
				enum keymap_action *out)
{
	enum keymap_scope scopes[2] = {scope, KS_GENERIC};
	for (int k = 0; k < (scope == KS_GENERIC ? 1 : 2); k++) {
		for (size_t i = 0; i < km->n; i++) {
			const struct binding *b = &km->v[i];
			if (b->scope != scopes[k] || b->keys[0] != keys[0])
				continue;
			if (b->n == n && (n == 1 || b->keys[1] == keys[1])) {
				*out = b->action;
				return KM_ACTION;
			}
			if (n == 1 && b->n == 2)
				return KM_PREFIX;
		}
	}
	return KM_NONE;
}

static void keys_text(const struct binding *b, struct buf *out)
{
	char name[16];
	for (size_t i = 0; i < b->n; i++) {
		if (i)
			buf_addc(out, ' ');
		buf_adds(out, keymap_key_name(b->keys[i], name));
	}
}

void keymap_keys_for(const struct keymap *km, enum keymap_scope scope, enum keymap_action a, struct buf *out)
{
	int first = 1;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < km->n; i++) {
			const struct binding *b = &km->v[i];
			if (b->action != a || b->scope != (pass ? KS_GENERIC : scope) || (pass && scope == KS_GENERIC))
				continue;
			if (!first)
				buf_adds(out, ", ");
			first = 0;
			keys_text(b, out);
		}
}

void keymap_dump(const struct keymap *km, struct buf *out)
{
	for (int s = 0; s < KS_COUNT; s++)
		for (int a = 1; a < KA_COUNT; a++)
			for (size_t i = 0; i < km->n; i++) {
				const struct binding *b = &km->v[i];
				if ((int)b->scope != s || (int)b->action != a)
					continue;
				buf_addf(out, "bind %s ", scope_names[s]);
				keys_text(b, out);
				buf_addf(out, " %s\n", action_names[a]);
			}
}
