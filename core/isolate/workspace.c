#include "core/isolate/workspace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What we know is on disk for a path we touched. */
struct slot {
	char *path;
	int present;
	unsigned mode;
	char id[41];
	int overridden;   /* 0 base, 1 overridden by an earlier configuration, 2 by the current one */
	int recorded;     /* listed in the state file */
	int listed;       /* (workspace_verify) found in the state file */
};

struct workspace {
	struct repo *repo;
	char *dir, *state;
	char base[41];
	struct slot *slots;   /* open addressing by path hash */
	size_t nslots, used;
	FILE *statef;         /* append-only list of overridden paths */
	struct cerr *e;
	size_t written;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct slot *slot_get(struct workspace *w, const char *path, int create)
{
	if (create && (w->used + 1) * 2 > w->nslots) {
		size_t n = w->nslots ? w->nslots * 2 : 256;
		struct slot *old = w->slots;
		size_t oldn = w->nslots;
		w->slots = xcalloc(n, sizeof(*w->slots));
		w->nslots = n;
		for (size_t i = 0; i < oldn; i++)
			if (old[i].path) {
				size_t k = hash_str(old[i].path) % n;
				while (w->slots[k].path)
					k = (k + 1) % n;
				w->slots[k] = old[i];
			}
		free(old);
	}
	if (!w->nslots)
		return NULL;
	size_t k = hash_str(path) % w->nslots;
	while (w->slots[k].path) {
		if (!strcmp(w->slots[k].path, path))
			return &w->slots[k];
		k = (k + 1) % w->nslots;
	}
	if (!create)
		return NULL;
	w->slots[k].path = xstrdup(path);
	w->used++;
	return &w->slots[k];
}

static int safe_path(const char *p)
{
	if (!*p || *p == '/')
		return 0;
	for (const char *s = p; *s;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if ((n == 2 && !strncmp(s, "..", 2)) || (n == 1 && *s == '.') || n == 0 || (n == 4 && !strncmp(s, ".git", 4)))
			return 0;
		s += n + (e ? 1 : 0);
		if (!e)
			break;
	}
	return 1;
}

/* Read what is on disk for a path: presence, mode, blob id. */
static void disk_state(struct workspace *w, const char *path, struct slot *sl)
{
	char *full = xasprintf("%s/%s", w->dir, path);
	struct stat st;
	sl->present = 0;
	sl->mode = 0;
	strcpy(sl->id, "-");
	if (lstat(full, &st) == 0) {
		struct buf b = BUF_INIT;
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(full, target, sizeof(target));
			if (n >= 0) {
				buf_add(&b, target, (size_t)n);
				sl->present = 1;
				sl->mode = 0120000;
			}
		} else if (S_ISREG(st.st_mode) && file_read(full, &b, (size_t)1 << 31, NULL) == 0) {
			sl->present = 1;
			sl->mode = (st.st_mode & 0111) ? 0100755 : 0100644;
		}
		if (sl->present)
			repo_hash(b.s ? b.s : "", b.len, sl->id);
		buf_release(&b);
	}
	free(full);
}

/* Overwrite a file where it is: a scratch worktree needs no atomic rename
 * (the state file already lists the path, so a torn write is restored at the
 * next open). Not truncating to zero first matters: ext4 flushes a file
 * truncated to zero and rewritten (auto_da_alloc), which costs ~0.1 ms a file. */
static int write_in_place(const char *path, const char *data, size_t len, unsigned mode, struct cerr *e)
{
	size_t total = len;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, mode);
	if (fd < 0)
		return cerr_set(e, "%s: %s", path, strerror(errno));
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			close(fd);
			return cerr_set(e, "%s: %s", path, strerror(err));
		}
		data += n;
		len -= (size_t)n;
	}
	if (ftruncate(fd, (off_t)total) < 0 || fchmod(fd, mode) < 0 || close(fd) < 0)
		return cerr_set(e, "%s: %s", path, strerror(errno));
	return 0;
}

/* Make path hold (present, mode, data). */
static int put(struct workspace *w, const char *path, int present, unsigned mode, const char *data, size_t len,
	       int overriding)
{
	if (!safe_path(path))
		return cerr_set(w->e, "refusing to write outside the worktree: '%s'", path);
	struct slot *sl = slot_get(w, path, 0);
	if (!sl) {
		sl = slot_get(w, path, 1);
		disk_state(w, path, sl);
	}
	char id[41] = "-";
	if (present)
		repo_hash(data, len, id);
	if (sl->present == present && (!present || (sl->mode == mode && !strcmp(sl->id, id))))
		goto done;
	if (overriding && !sl->recorded && w->statef) {
		sl->recorded = 1;
		/* Record first, so a kill between here and the write is recovered. */
		fprintf(w->statef, "%s\n", path);
		fflush(w->statef);
	}
	char *full = xasprintf("%s/%s", w->dir, path);
	if (!present || mode == 0120000 || sl->mode == 0120000)
		unlink(full);
	int rc = 0;
	if (present) {
		char *slash = strrchr(full, '/');
		*slash = '\0';
		rc = mkdir_p(full, 0755, w->e);
		*slash = '/';
		if (rc == 0 && mode == 0120000) {
			char *target = xstrndup(data, len);
			if (symlink(target, full) < 0)
				rc = cerr_set(w->e, "%s: %s", full, strerror(errno));
			free(target);
		} else if (rc == 0) {
			rc = write_in_place(full, data, len, mode == 0100755 ? 0755 : 0644, w->e);
		}
	}
	free(full);
	if (rc < 0)
		return rc;
	sl->present = present;
	sl->mode = mode;
	memcpy(sl->id, id, 41);
	w->written++;
done:
	return 0;
}

/* Put a path back to the base commit's content. */
static int restore(struct workspace *w, const char *path)
{
	struct buf b = BUF_INIT;
	unsigned mode = 0;
	int found = repo_read_path(w->repo, w->base, path, &b, &mode, w->e);
	int rc = found < 0 ? -1 : put(w, path, found, mode, b.s ? b.s : "", b.len, 0);
	buf_release(&b);
	return rc;
}

static int populate_cb(void *priv, const char *path, unsigned mode, const char *data, size_t len)
{
	struct workspace *w = priv;
	if (mode == 0160000) {
		/* A submodule: its files at the commit the tree records, from
		 * the user's clone of it; else its directory, empty, as a
		 * clone without --recurse-submodules has it. */
		if (!safe_path(path))
			return cerr_set(w->e, "refusing to write outside the worktree: '%s'", path);
		char *full = xasprintf("%s/%s", w->dir, path);
		int rc = mkdir_p(full, 0755, w->e);
		free(full);
		if (rc == 0 && data && len == 40) {
			char hex[41];
			memcpy(hex, data, 40);
			hex[40] = '\0';
			rc = repo_submodule_walk(w->repo, path, hex, populate_cb, w, w->e);
		}
		return rc < 0 ? rc : 0;
	}
	return put(w, path, 1, mode, data, len, 0);
}

int workspace_open(struct workspace **out, struct repo *r, const char *dir, const char *base_hex, struct cerr *e)
{
	struct workspace *w = xcalloc(1, sizeof(*w));
	w->repo = r;
	w->dir = xstrdup(dir);
	w->state = xasprintf("%s.state", dir);
	w->e = e;
	memcpy(w->base, base_hex, 41);
	*out = NULL;

	struct buf st = BUF_INIT;
	int same = file_read(w->state, &st, (size_t)64 << 20, NULL) == 0 && st.len >= 41 &&
		   !strncmp(st.s, base_hex, 40) && st.s[40] == '\n' && access(dir, F_OK) == 0;
	int rc = 0;
	if (same) {
		/* Restore whatever an earlier run left overridden. */
		char *line = st.s + 41, *nl;
		while (rc == 0 && line < st.s + st.len && (nl = strchr(line, '\n'))) {
			*nl = '\0';
			if (*line && safe_path(line))
				rc = restore(w, line);
			line = nl + 1;
		}
	} else {
		rc = remove_tree(dir, e);
		if (rc == 0)
			rc = mkdir_p(dir, 0755, e);
		if (rc == 0)
			rc = repo_tree_walk(r, base_hex, populate_cb, w, e);
	}
	buf_release(&st);
	if (rc == 0) {
		w->statef = fopen(w->state, "w");
		if (!w->statef)
			rc = cerr_set(e, "%s: %s", w->state, strerror(errno));
		else {
			fprintf(w->statef, "%s\n", base_hex);
			fflush(w->statef);
		}
	}
	for (size_t i = 0; i < w->nslots; i++)
		w->slots[i].overridden = 0;
	if (rc < 0) {
		workspace_free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void workspace_free(struct workspace *w)
{
	if (!w)
		return;
	if (w->statef)
		fclose(w->statef);
	for (size_t i = 0; i < w->nslots; i++)
		free(w->slots[i].path);
	free(w->slots);
	free(w->dir);
	free(w->state);
	free(w);
}

const char *workspace_path(const struct workspace *w)
{
	return w->dir;
}

struct apply_ctx {
	struct workspace *w;
	const struct change_set *s;
};

static int apply_cb(void *priv, const char *path, int present, unsigned mode, const char *data, size_t len)
{
	struct apply_ctx *c = priv;
	if (put(c->w, path, present, mode, data, len, 1) < 0)
		return -1;
	slot_get(c->w, path, 0)->overridden = 2;   /* touched by this configuration */
	return 0;
}

int workspace_apply(struct workspace *w, const struct change_set *s, const struct bits *applied, size_t *written,
		    struct cerr *e)
{
	w->e = e;
	w->written = 0;
	/* Paths this set touches get their configuration's content... */
	for (size_t i = 0; i < w->nslots; i++)
		if (w->slots[i].path && w->slots[i].overridden == 2)
			w->slots[i].overridden = 1;
	struct apply_ctx c = {w, s};
	if (change_materialize(s, applied, apply_cb, &c) < 0)
		return -1;
	/* ... and paths an earlier configuration overrode go back to the base. */
	for (size_t i = 0; i < w->nslots; i++) {
		struct slot *sl = &w->slots[i];
		if (sl->path && sl->overridden == 1) {
			char *p = xstrdup(sl->path);
			int rc = restore(w, p);
			free(p);
			if (rc < 0)
				return -1;
			sl = slot_get(w, sl->path, 0);
			sl->overridden = 0;
		}
	}
	for (size_t i = 0; i < w->nslots; i++)
		if (w->slots[i].path && w->slots[i].overridden == 2)
			w->slots[i].overridden = 1;
	if (written)
		*written = w->written;
	return 0;
}

int workspace_reset(struct workspace *w, size_t *written, struct cerr *e)
{
	w->e = e;
	w->written = 0;
	for (size_t i = 0; i < w->nslots; i++)
		if (w->slots[i].path && w->slots[i].overridden) {
			if (restore(w, w->slots[i].path) < 0)
				return -1;
			w->slots[i].overridden = 0;
		}
	if (written)
		*written = w->written;
	return 0;
}

int workspace_verify(struct workspace *w, int contents, struct cerr *e)
{
	/* The state file: our base, and every path we overrode listed. */
	struct buf st = BUF_INIT;
	if (w->statef)
		fflush(w->statef);
	if (file_read(w->state, &st, (size_t)64 << 20, NULL) < 0 || st.len < 41 || strncmp(st.s, w->base, 40) ||
	    st.s[40] != '\n') {
		buf_release(&st);
		cerr_set(e, "%s no longer names the base %.12s", w->state, w->base);
		return 0;
	}
	for (size_t i = 0; i < w->nslots; i++)
		w->slots[i].listed = 0;
	for (char *line = st.s + 41, *nl; line < st.s + st.len && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		struct slot *sl = slot_get(w, line, 0);
		if (sl)
			sl->listed = 1;
	}
	buf_release(&st);
	int ok = 1;
	for (size_t i = 0; ok && i < w->nslots; i++) {
		struct slot *sl = &w->slots[i];
		if (!sl->path || !sl->recorded)
			continue;
		if (!sl->listed) {
			cerr_set(e, "%s no longer lists %s", w->state, sl->path);
			ok = 0;
			break;
		}
		if (!contents)
			continue;
		struct slot now = {0};
		disk_state(w, sl->path, &now);
		if (now.present != sl->present || (now.present && (now.mode != sl->mode || strcmp(now.id, sl->id)))) {
			cerr_set(e, "%s changed in the worktree", sl->path);
			ok = 0;
		}
	}
	return ok;
}
