/* store — the session in SQLite (<gitdir>/culprit/session.db, WAL): the
 * session's inputs, its changes, every configuration's outcome, key/value
 * state and the event log. Each outcome and event is committed as soon as it
 * is known, so a killed run loses nothing it had finished. Thread-safe: one
 * connection guarded by a mutex. */
#ifndef CULPRIT_STORE_H
#define CULPRIT_STORE_H

#include <stdint.h>
#include "core/util.h"

struct store;

int store_open(struct store **out, const char *path, struct cerr *e);
void store_free(struct store *s);   /* NULL is a no-op */

/* Find the session with this key (a hash of its inputs) or create it.
 * fresh: delete any existing session with the key first. *resumed = 1 when
 * an existing session was found. inputs is a JSON text kept for `report`. */
int store_session_open(struct store *s, const char *key, const char *inputs, int fresh,
		       int64_t *id, int *resumed, struct cerr *e);
/* The most recently used session: 1 found, 0 none, <0 error. *inputs: caller frees. */
int store_session_latest(struct store *s, int64_t *id, char **inputs, struct cerr *e);
/* The session a stored-session command reads: want > 0 that session; 0 the
 * one whose analysis finished last (the kv "state" explained or unexplained),
 * else the most recently used. 1 found, 0 none, <0 error. */
int store_session_pick(struct store *s, int64_t want, int64_t *id, struct cerr *e);

/* One stored session, as `culprit sessions` lists it (strings owned, NULL when unset). */
struct session_row {
	int64_t id;
	double created, used, finished;   /* seconds since the epoch; finished 0: never */
	char *good, *bad, *test, *state;
	int64_t configs;
};
/* Every session, oldest first. Free with store_sessions_free. */
int store_sessions(struct store *s, struct session_row **rows, size_t *n, struct cerr *e);
void store_sessions_free(struct session_row *rows, size_t n);

/* One configuration's outcome, keyed by the hash of its file contents. */
struct outcome {
	char key[41];
	char *label;            /* what was tested: "commit 1a2b3c", "changes 3 5 8" (owned) */
	int verdict;            /* enum verdict */
	int why;                /* enum unresolved_why */
	char *signature;        /* failure signature or NULL (owned) */
	char *excerpt;          /* build error line or output tail (owned, may be NULL) */
	double build_seconds, test_seconds;
	int runs;               /* how many test runs (--repeat) */
	int flaky;              /* runs disagreed */
};
void outcome_release(struct outcome *o);

/* 1 found (o filled, release it), 0 not stored, <0 error. */
int store_outcome_get(struct store *s, int64_t session, const char *key, struct outcome *o,
		      struct cerr *e);
int store_outcome_put(struct store *s, int64_t session, const struct outcome *o, struct cerr *e);
/* How many outcomes the session holds. */
int64_t store_outcome_count(struct store *s, int64_t session);

/* Session values (elapsed time, signature of the bad revision, UI state, ...). */
int store_set(struct store *s, int64_t session, const char *name, const char *value, struct cerr *e);
/* Caller frees; NULL when unset. */
char *store_get(struct store *s, int64_t session, const char *name);

/* The changes of the session, as a JSON array text each, keyed by change id
 * (replaced wholesale). */
int store_changes_put(struct store *s, int64_t session, const char *const *ids,
		      const char *const *json, size_t n, struct cerr *e);
int64_t store_changes_count(struct store *s, int64_t session);

/* The event log. */
struct event {
	int64_t seq;
	double time;            /* seconds since the epoch */
	char *type;             /* "CONFIG_TESTED", "COMMIT_BLAMED", ... */
	char *text;
};
int store_event_add(struct store *s, int64_t session, const char *type, const char *text,
		    struct cerr *e);
/* Events with seq > after, oldest first, at most max (0: all). Caller frees
 * with store_events_free. */
int store_events(struct store *s, int64_t session, int64_t after, size_t max, struct event **out,
		 size_t *n, struct cerr *e);
void store_events_free(struct event *ev, size_t n);

#endif
