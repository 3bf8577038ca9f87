#include "core/session/store.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>

#define SCHEMA_VERSION 1

struct store {
	sqlite3 *db;
	char *path;
	pthread_mutex_t lock;
};

/* Version 1. A later version migrates from user_version up, step by step. */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS session(id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL,"
	" inputs TEXT, created REAL, used REAL);"
	"CREATE TABLE IF NOT EXISTS outcome(session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	" key TEXT NOT NULL, label TEXT, verdict INTEGER, why INTEGER, signature TEXT, excerpt TEXT,"
	" build_seconds REAL, test_seconds REAL, runs INTEGER, flaky INTEGER, created REAL,"
	" PRIMARY KEY(session, key));"
	"CREATE TABLE IF NOT EXISTS kv(session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL, value TEXT, PRIMARY KEY(session, name));"
	"CREATE TABLE IF NOT EXISTS change(session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE,"
	" id TEXT NOT NULL, json TEXT, PRIMARY KEY(session, id));"
	"CREATE TABLE IF NOT EXISTS event(seq INTEGER PRIMARY KEY,"
	" session INTEGER NOT NULL REFERENCES session(id) ON DELETE CASCADE, time REAL, type TEXT, text TEXT);"
	"CREATE INDEX IF NOT EXISTS event_session ON event(session, seq);";

static double wall(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int db_error(struct store *s, struct cerr *e, const char *what)
{
	return cerr_set(e, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

/* One integer from a query without parameters; -1 when it fails. */
static int query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int v = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Set up the connection and the schema; a message for the user on failure. */
static int store_init(struct store *s, struct cerr *e)
{
	if (sqlite3_busy_timeout(s->db, 5000) != SQLITE_OK)
		return db_error(s, e, "cannot open");
	/* The first read of a file that is not SQLite fails here. */
	int version = query_int(s->db, "PRAGMA user_version");
	int tables = query_int(s->db, "SELECT count(*) FROM sqlite_master");
	if ((version < 0 || tables < 0) && sqlite3_errcode(s->db) != SQLITE_NOTADB)
		return db_error(s, e, "cannot read");
	if (version < 0 || tables < 0 || (version == 0 && tables > 0))
		return cerr_set(e, "%s: not a culprit session database", s->path);
	if (version > SCHEMA_VERSION)
		return cerr_set(e, "%s: made by a newer culprit (schema %d)", s->path, version);
	char *msg = NULL;
	if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON",
			 NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	if (version < SCHEMA_VERSION &&
	    (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK ||
	     sqlite3_exec(s->db, schema, NULL, NULL, &msg) != SQLITE_OK ||
	     /* pragmas take no parameters: keep this literal equal to SCHEMA_VERSION */
	     sqlite3_exec(s->db, "PRAGMA user_version=1; COMMIT", NULL, NULL, &msg) != SQLITE_OK)) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		goto fail;
	}
	return 0;
fail:
	cerr_set(e, "%s: cannot set up the session database: %s", s->path, msg ? msg : "?");
	sqlite3_free(msg);
	return -1;
}

int store_open(struct store **out, const char *path, struct cerr *e)
{
	struct store *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	pthread_mutex_init(&s->lock, NULL);
	*out = NULL;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK) {
		db_error(s, e, "cannot open");
		store_free(s);
		return -1;
	}
	if (store_init(s, e) < 0) {
		store_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void store_free(struct store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	pthread_mutex_destroy(&s->lock);
	free(s->path);
	free(s);
}

/* Prepare under the lock; the caller steps, finalizes and unlocks. */
static sqlite3_stmt *prep(struct store *s, const char *sql, struct cerr *e)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		db_error(s, e, "query failed");
		return NULL;
	}
	return st;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? xstrdup((const char *)t) : NULL;
}

/* Run a statement that returns no rows, and finalize it. */
/* Step st to its end, each row read by `row` into a new element (of `size`
 * bytes) of the growing array *v of *n; st is finalized. */
static int rows_read(struct store *s, sqlite3_stmt *st, void **v, size_t *n, size_t size,
		     void (*row)(sqlite3_stmt *st, void *elem), struct cerr *e)
{
	size_t cap = 0;
	int step;
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			*v = xrealloc(*v, cap * size);
		}
		row(st, (char *)*v + (*n)++ * size);
	}
	int rc = step == SQLITE_DONE ? 0 : db_error(s, e, "read failed");
	sqlite3_finalize(st);
	return rc;
}

static int exec_done(struct store *s, sqlite3_stmt *st, struct cerr *e)
{
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s, e, "write failed");
	sqlite3_finalize(st);
	return rc;
}

static int begin(struct store *s, struct cerr *e)
{
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_error(s, e, "cannot start a transaction");
	return 0;
}

/* Commit when rc is 0, else roll back; returns rc, or <0 when the commit fails. */
static int finish(struct store *s, int rc, struct cerr *e)
{
	if (rc == 0 && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	if (rc == 0)
		rc = db_error(s, e, "commit failed");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* The tables reference the session with ON DELETE CASCADE; deleting by hand
 * as well keeps this independent of the foreign_keys pragma. */
static int delete_session(struct store *s, int64_t id, struct cerr *e)
{
	static const char *const sql[] = {"DELETE FROM outcome WHERE session=?", "DELETE FROM kv WHERE session=?",
					  "DELETE FROM change WHERE session=?", "DELETE FROM event WHERE session=?",
					  "DELETE FROM session WHERE id=?"};
	for (size_t i = 0; i < sizeof(sql) / sizeof(*sql); i++) {
		sqlite3_stmt *st = prep(s, sql[i], e);
		if (!st)
			return -1;
		sqlite3_bind_int64(st, 1, id);
		if (exec_done(s, st, e) < 0)
			return -1;
	}
	return 0;
}

static int session_open(struct store *s, const char *key, const char *inputs, int fresh, int64_t *id,
			int *resumed, struct cerr *e)
{
	sqlite3_stmt *st = prep(s, "SELECT id FROM session WHERE key=?", e);
	if (!st)
		return -1;
	bind_text(st, 1, key);
	int step = sqlite3_step(st);
	int found = step == SQLITE_ROW;
	int64_t old = found ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (step != SQLITE_ROW && step != SQLITE_DONE)
		return db_error(s, e, "read failed");
	if (found && fresh) {
		if (delete_session(s, old, e) < 0)
			return -1;
		found = 0;
	}
	double t = wall();
	if (found) {
		st = prep(s, "UPDATE session SET used=? WHERE id=?", e);
		if (!st)
			return -1;
		sqlite3_bind_double(st, 1, t);
		sqlite3_bind_int64(st, 2, old);
	} else {
		st = prep(s, "INSERT INTO session(key, inputs, created, used) VALUES(?,?,?,?)", e);
		if (!st)
			return -1;
		bind_text(st, 1, key);
		bind_text(st, 2, inputs);
		sqlite3_bind_double(st, 3, t);
		sqlite3_bind_double(st, 4, t);
	}
	if (exec_done(s, st, e) < 0)
		return -1;
	*id = found ? old : sqlite3_last_insert_rowid(s->db);
	*resumed = found;
	return 0;
}

int store_session_open(struct store *s, const char *key, const char *inputs, int fresh, int64_t *id,
		       int *resumed, struct cerr *e)
{
	pthread_mutex_lock(&s->lock);
	int rc = begin(s, e);
	if (rc == 0)
		rc = finish(s, session_open(s, key, inputs, fresh, id, resumed, e), e);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int store_session_latest(struct store *s, int64_t *id, char **inputs, struct cerr *e)
{
	int rc = -1;
	*inputs = NULL;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "SELECT id, inputs FROM session ORDER BY used DESC, id DESC LIMIT 1", e);
	if (st) {
		int step = sqlite3_step(st);
		if (step == SQLITE_ROW) {
			*id = sqlite3_column_int64(st, 0);
			*inputs = col_text(st, 1);
			rc = 1;
		} else {
			rc = step == SQLITE_DONE ? 0 : db_error(s, e, "read failed");
		}
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void outcome_release(struct outcome *o)
{
	free(o->label);
	free(o->signature);
	free(o->excerpt);
	o->label = o->signature = o->excerpt = NULL;
}

int store_outcome_get(struct store *s, int64_t session, const char *key, struct outcome *o, struct cerr *e)
{
	int rc = -1;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "SELECT label, verdict, why, signature, excerpt, build_seconds, test_seconds,"
				   " runs, flaky FROM outcome WHERE session=? AND key=?", e);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		bind_text(st, 2, key);
		int step = sqlite3_step(st);
		if (step == SQLITE_ROW) {
			char k[41];
			snprintf(k, sizeof(k), "%s", key);   /* key may be o->key */
			memset(o, 0, sizeof(*o));
			memcpy(o->key, k, sizeof(k));
			o->label = col_text(st, 0);
			o->verdict = sqlite3_column_int(st, 1);
			o->why = sqlite3_column_int(st, 2);
			o->signature = col_text(st, 3);
			o->excerpt = col_text(st, 4);
			o->build_seconds = sqlite3_column_double(st, 5);
			o->test_seconds = sqlite3_column_double(st, 6);
			o->runs = sqlite3_column_int(st, 7);
			o->flaky = sqlite3_column_int(st, 8);
			rc = 1;
		} else {
			rc = step == SQLITE_DONE ? 0 : db_error(s, e, "read failed");
		}
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int store_outcome_put(struct store *s, int64_t session, const struct outcome *o, struct cerr *e)
{
	int rc = -1;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "INSERT OR REPLACE INTO outcome(session, key, label, verdict, why, signature,"
				   " excerpt, build_seconds, test_seconds, runs, flaky, created)"
				   " VALUES(?,?,?,?,?,?,?,?,?,?,?,?)", e);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		bind_text(st, 2, o->key);
		bind_text(st, 3, o->label);
		sqlite3_bind_int(st, 4, o->verdict);
		sqlite3_bind_int(st, 5, o->why);
		bind_text(st, 6, o->signature);
		bind_text(st, 7, o->excerpt);
		sqlite3_bind_double(st, 8, o->build_seconds);
		sqlite3_bind_double(st, 9, o->test_seconds);
		sqlite3_bind_int(st, 10, o->runs);
		sqlite3_bind_int(st, 11, o->flaky);
		sqlite3_bind_double(st, 12, wall());
		rc = exec_done(s, st, e);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

static int64_t count(struct store *s, const char *sql, int64_t session)
{
	int64_t n = -1;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, sql, NULL);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

int64_t store_outcome_count(struct store *s, int64_t session)
{
	return count(s, "SELECT count(*) FROM outcome WHERE session=?", session);
}

int store_set(struct store *s, int64_t session, const char *name, const char *value, struct cerr *e)
{
	int rc = -1;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "INSERT OR REPLACE INTO kv(session, name, value) VALUES(?,?,?)", e);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		bind_text(st, 2, name);
		bind_text(st, 3, value);
		rc = exec_done(s, st, e);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

char *store_get(struct store *s, int64_t session, const char *name)
{
	char *v = NULL;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "SELECT value FROM kv WHERE session=? AND name=?", NULL);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		bind_text(st, 2, name);
		if (sqlite3_step(st) == SQLITE_ROW)
			v = col_text(st, 0);
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return v;
}

static int changes_put(struct store *s, int64_t session, const char *const *ids, const char *const *json,
		       size_t n, struct cerr *e)
{
	sqlite3_stmt *st = prep(s, "DELETE FROM change WHERE session=?", e);
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, session);
	if (exec_done(s, st, e) < 0)
		return -1;
	if (!(st = prep(s, "INSERT INTO change(session, id, json) VALUES(?,?,?)", e)))
		return -1;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		sqlite3_bind_int64(st, 1, session);
		bind_text(st, 2, ids[i]);
		bind_text(st, 3, json[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = db_error(s, e, "write failed");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_changes_put(struct store *s, int64_t session, const char *const *ids, const char *const *json,
		      size_t n, struct cerr *e)
{
	pthread_mutex_lock(&s->lock);
	int rc = begin(s, e);
	if (rc == 0)
		rc = finish(s, changes_put(s, session, ids, json, n, e), e);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int64_t store_changes_count(struct store *s, int64_t session)
{
	return count(s, "SELECT count(*) FROM change WHERE session=?", session);
}

int store_event_add(struct store *s, int64_t session, const char *type, const char *text, struct cerr *e)
{
	int rc = -1;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "INSERT INTO event(session, time, type, text) VALUES(?,?,?,?)", e);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_double(st, 2, wall());
		bind_text(st, 3, type);
		bind_text(st, 4, text);
		rc = exec_done(s, st, e);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

static void event_row(sqlite3_stmt *st, void *v)
{
	struct event *ev = v;
	ev->seq = sqlite3_column_int64(st, 0);
	ev->time = sqlite3_column_double(st, 1);
	ev->type = col_text(st, 2);
	ev->text = col_text(st, 3);
}

int store_events(struct store *s, int64_t session, int64_t after, size_t max, struct event **out, size_t *n,
		 struct cerr *e)
{
	int rc = -1;
	*out = NULL;
	*n = 0;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "SELECT seq, time, type, text FROM event WHERE session=? AND seq>?"
				   " ORDER BY seq LIMIT ?", e);
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_int64(st, 2, after);
		sqlite3_bind_int64(st, 3, max ? (int64_t)max : -1);
		void *v = NULL;
		rc = rows_read(s, st, &v, n, sizeof(**out), event_row, e);
		*out = v;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void store_events_free(struct event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(ev[i].type);
		free(ev[i].text);
	}
	free(ev);
}

/* A session is finished when its analysis ran to an answer, explained or not
 * (the kv "state" explain writes at the end of a run). */
#define FINISHED "('explained','unexplained')"

int store_session_pick(struct store *s, int64_t want, int64_t *id, struct cerr *e)
{
	static const char *const sql[] = {
		"SELECT id FROM session WHERE id=?1",
		"SELECT s.id FROM session s JOIN kv k ON k.session=s.id AND k.name='state' AND k.value IN " FINISHED
		" LEFT JOIN kv f ON f.session=s.id AND f.name='finished'"
		" ORDER BY CAST(f.value AS REAL) DESC, s.used DESC, s.id DESC LIMIT 1",
		"SELECT id FROM session ORDER BY used DESC, id DESC LIMIT 1",
	};
	int rc = 0;
	pthread_mutex_lock(&s->lock);
	for (size_t i = want > 0 ? 0 : 1; i < (want > 0 ? 1u : 3u) && rc == 0; i++) {
		sqlite3_stmt *st = prep(s, sql[i], e);
		if (!st) {
			rc = -1;
			break;
		}
		if (i == 0)
			sqlite3_bind_int64(st, 1, want);
		int step = sqlite3_step(st);
		if (step == SQLITE_ROW) {
			*id = sqlite3_column_int64(st, 0);
			rc = 1;
		} else if (step != SQLITE_DONE) {
			rc = db_error(s, e, "read failed");
		}
		sqlite3_finalize(st);
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

static void session_row(sqlite3_stmt *st, void *v)
{
	struct session_row *r = v;
	r->id = sqlite3_column_int64(st, 0);
	r->created = sqlite3_column_double(st, 1);
	r->used = sqlite3_column_double(st, 2);
	r->finished = sqlite3_column_type(st, 3) == SQLITE_NULL ? 0 : sqlite3_column_double(st, 3);
	r->good = col_text(st, 4);
	r->bad = col_text(st, 5);
	r->test = col_text(st, 6);
	r->state = col_text(st, 7);
	r->configs = sqlite3_column_int64(st, 8);
}

int store_sessions(struct store *s, struct session_row **rows, size_t *n, struct cerr *e)
{
	int rc = -1;
	*rows = NULL;
	*n = 0;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *st = prep(s, "SELECT id, created, used,"
				   " (SELECT value FROM kv WHERE session=id AND name='finished'),"
				   " (SELECT value FROM kv WHERE session=id AND name='good_rev'),"
				   " (SELECT value FROM kv WHERE session=id AND name='bad_rev'),"
				   " (SELECT value FROM kv WHERE session=id AND name='test'),"
				   " (SELECT value FROM kv WHERE session=id AND name='state'),"
				   " (SELECT count(*) FROM outcome WHERE session=id)"
				   " FROM session ORDER BY id", e);
	if (st) {
		void *v = NULL;
		rc = rows_read(s, st, &v, n, sizeof(**rows), session_row, e);
		*rows = v;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void store_sessions_free(struct session_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].good);
		free(rows[i].bad);
		free(rows[i].test);
		free(rows[i].state);
	}
	free(rows);
}
