#include "views/view.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void view_clear(struct view *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->lines[i].text);
	v->n = 0;
}

static void push(struct view *v, enum view_color color, long ref, int node, char *text)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 256;
		v->lines = xrealloc(v->lines, v->cap * sizeof(*v->lines));
	}
	/* Tabs as spaces, control characters as '?': the screen shows text only. */
	struct buf b = BUF_INIT;
	for (const char *p = text; *p; p++) {
		if (*p == '\t')
			buf_adds(&b, "    ");
		else if ((unsigned char)*p < ' ' || *p == 127)
			buf_addc(&b, '?');
		else
			buf_addc(&b, *p);
	}
	free(text);
	v->lines[v->n++] = (struct vline){buf_detach(&b), color, ref, node, -1};
}

void view_add(struct view *v, enum view_color color, long ref, int node, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	push(v, color, ref, node, buf_detach(&b));
}

void view_set_ev(struct view *v, long ev)
{
	if (v->n)
		v->lines[v->n - 1].ev = ev;
}

void view_add_text(struct view *v, enum view_color color, long ref, const char *prefix, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		if (n && p[n - 1] == '\r')
			n--;
		push(v, color, ref, -1, xasprintf("%s%.*s", prefix, (int)n, p));
		p = nl ? nl + 1 : end;
	}
}

void view_release(struct view *v)
{
	view_clear(v);
	free(v->lines);
	v->lines = NULL;
	v->cap = 0;
}
