/* change — the change set between two trees: files, hunk-level changes (what the
 * user sees as "change #N"), and the atoms a configuration is made of; the
 * hierarchy commit -> file -> function -> hunk -> line -> token, and the
 * materialization of any configuration's file contents, byte for byte. */
#ifndef CULPRIT_CHANGE_H
#define CULPRIT_CHANGE_H

#include <stddef.h>
#include "core/util.h"

enum change_file_status {
	CHANGE_MODIFIED,
	CHANGE_ADDED,
	CHANGE_DELETED,
	CHANGE_RENAMED,   /* possibly with content changes too */
};

struct change_file {
	char *old_path, *new_path;     /* both set; equal unless renamed; for added/deleted both are the one path */
	unsigned old_mode, new_mode;   /* git modes (0100644, 0100755, 0120000); 0 when absent */
	char *old_data, *new_data;     /* blob contents (owned; NULL when absent) */
	size_t old_len, new_len;
	enum change_file_status status;
	int binary;                    /* binary: one whole-file change, no hunks */
	size_t change0, nchanges;      /* its changes: set->changes[change0 .. change0+nchanges) */
};

enum change_kind {
	CHANGE_HUNK,        /* old lines [old_start, +old_lines) become new lines [new_start, +new_lines) */
	CHANGE_FILE_ADD,    /* the file exists (with its new content) iff applied */
	CHANGE_FILE_DELETE, /* the file is gone iff applied */
	CHANGE_FILE_RENAME, /* the file lives at new_path iff applied (content changes are separate hunks) */
	CHANGE_FILE_MODE,   /* the file has new_mode iff applied */
	CHANGE_FILE_BINARY, /* the whole content is replaced iff applied */
};

/* One hunk-level change: the unit the dynamic analysis starts from. Its atoms
 * are set->atoms[atom0 .. atom0+natoms): one atom for whole-file kinds and for
 * hunks that do not split, else the token-level pieces of the hunk in order. */
struct change {
	unsigned id;                   /* stable: 1-based position in the set (diff order) */
	size_t file;                   /* index into set->files */
	enum change_kind kind;
	int old_start, old_lines;      /* as git reports them (0-context diff); 0 for whole-file kinds */
	int new_start, new_lines;
	char *function;                /* enclosing function from the hunk header, or "" */
	size_t atom0, natoms;
};

/* An atom: the smallest edit a configuration can apply or leave out. For a
 * text atom, old bytes [old_off, old_end) of the file are replaced by new
 * bytes [new_off, new_end) of the new blob. The atoms of one file never
 * overlap in the old file and are sorted by old_off. */
struct change_atom {
	size_t change;                 /* index into set->changes */
	unsigned sub;                  /* 1-based piece number inside its change (0 if the change is one atom) */
	size_t old_off, old_end;
	size_t new_off, new_end;
	int old_line, new_line;        /* 1-based line where the atom starts, in the old / new file */
};

struct change_set {
	char *old_rev, *new_rev;       /* the two commits (hex) the set was diffed between */
	struct change_file *files;
	size_t nfiles;
	struct change *changes;
	size_t nchanges;
	struct change_atom *atoms;
	size_t natoms;
};

/* Building a set (used by repo_diff). Strings and data are copied. */
struct change_set *change_set_new(const char *old_rev, const char *new_rev);
void change_set_free(struct change_set *s);   /* NULL is a no-op */
size_t change_set_add_file(struct change_set *s, const char *old_path, const char *new_path,
			   unsigned old_mode, unsigned new_mode,
			   const void *old_data, size_t old_len, const void *new_data, size_t new_len,
			   enum change_file_status status, int binary);
/* Add a whole-file change to the last added file. */
void change_set_add_file_change(struct change_set *s, enum change_kind kind);
/* Add a hunk (git's numbers) to the last added file. */
void change_set_add_hunk(struct change_set *s, int old_start, int old_lines, int new_start,
			 int new_lines, const char *function, size_t function_len);
/* Compute byte ranges and split every hunk into token-level atoms. Call once
 * after the last add. */
int change_set_finish(struct change_set *s, struct cerr *e);

/* All atoms of the given changes (indices into s->changes) set in a new bit set over atoms. */
struct bits *change_atoms_of(const struct change_set *s, const size_t *changes, size_t n);

/* Materialize a configuration (a bit set over s->atoms: applied atoms).
 * cb is called once for every path the set can touch (old and new path of a
 * rename), in a stable order, with present = 0 when the file must not exist.
 * data is only valid during the call. Returns the first non-zero cb result. */
typedef int (*change_file_cb)(void *priv, const char *path, int present, unsigned mode,
			      const char *data, size_t len);
int change_materialize(const struct change_set *s, const struct bits *applied, change_file_cb cb,
		       void *priv);

/* The text of a change as lines for display and reports: removed[] are the
 * old lines it touches, added[] the new lines (for an atom: the real lines
 * of the old and the new revision holding the piece, never the old line
 * with the piece applied alone, which exists in neither; removed_marked[]
 * and added_marked[] are the same lines with the piece between "[-" "-]"
 * and "{+" "+}", NULL for a whole change). Arrays and strings owned by the
 * caller: free with change_lines_free. Lines carry no '\n'. */
struct change_lines {
	char **removed, **added;
	char **removed_marked, **added_marked;
	size_t nremoved, nadded;
	int old_start, old_lines, new_start, new_lines;
};
void change_lines_of(const struct change_set *s, size_t change, struct change_lines *out);
void change_lines_of_atom(const struct change_set *s, size_t atom, struct change_lines *out);
void change_lines_free(struct change_lines *l);

#endif
