#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/session/store.h"
#include "core/util.h"
#include "tests/unit/test.h"

static char dir[] = "/tmp/culprit-store-XXXXXX";

static char *db_path(const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static struct outcome make_outcome(const char *key, const char *label, const char *sig)
{
	struct outcome o;
	memset(&o, 0, sizeof(o));
	snprintf(o.key, sizeof(o.key), "%s", key);
	o.label = (char *)label;
	o.signature = (char *)sig;
	return o;
}

static void test_open_reopen(void)
{
	char *path = db_path("a.db");
	struct store *s;
	struct cerr e;
	int64_t id1, id2;
	int resumed = -1;
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_open(s, "k1", "{\"test\":\"t\"}", 0, &id1, &resumed, &e) == 0);
	CHECK(resumed == 0);
	CHECK(store_set(s, id1, "bad_rev", "abc", &e) == 0);
	store_free(s);
	store_free(NULL);

	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_open(s, "k1", "ignored", 0, &id2, &resumed, &e) == 0);
	CHECK(resumed == 1 && id2 == id1);
	char *v = store_get(s, id1, "bad_rev");
	CHECK_STR(v, "abc");
	free(v);
	char *inputs = NULL;
	int64_t latest = 0;
	CHECK(store_session_latest(s, &latest, &inputs, &e) == 1);
	CHECK(latest == id1);
	CHECK_STR(inputs, "{\"test\":\"t\"}");
	free(inputs);
	store_free(s);
	free(path);
}

static void test_outcomes(void)
{
	char *path = db_path("b.db");
	struct store *s;
	struct cerr e;
	int64_t id;
	int resumed;
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_open(s, "k", NULL, 0, &id, &resumed, &e) == 0);

	struct outcome o = make_outcome("0123456789abcdef0123456789abcdef01234567", "changes 3 5 8", "exit 1");
	o.verdict = 1;
	o.why = 0;
	o.excerpt = (char *)"t.c:3: error: x";
	o.build_seconds = 1.5;
	o.test_seconds = 0.25;
	o.runs = 3;
	o.flaky = 1;
	CHECK(store_outcome_put(s, id, &o, &e) == 0);

	struct outcome got;
	CHECK(store_outcome_get(s, id, o.key, &got, &e) == 1);
	CHECK_STR(got.key, o.key);
	CHECK_STR(got.label, "changes 3 5 8");
	CHECK_STR(got.signature, "exit 1");
	CHECK_STR(got.excerpt, "t.c:3: error: x");
	CHECK(got.verdict == 1 && got.why == 0 && got.runs == 3 && got.flaky == 1);
	CHECK(got.build_seconds == 1.5 && got.test_seconds == 0.25);
	/* The key may be the outcome's own. */
	outcome_release(&got);
	CHECK(store_outcome_get(s, id, got.key, &got, &e) == 1);
	CHECK_STR(got.key, o.key);
	outcome_release(&got);

	CHECK(store_outcome_get(s, id, "ffff", &got, &e) == 0);
	CHECK(store_outcome_get(s, id + 1, o.key, &got, &e) == 0);

	struct outcome p = make_outcome("k2", "commit 1a2b3c", NULL);
	p.verdict = 2;
	p.why = 1;
	CHECK(store_outcome_put(s, id, &p, &e) == 0);
	CHECK(store_outcome_get(s, id, "k2", &got, &e) == 1);
	CHECK(got.signature == NULL && got.excerpt == NULL && got.verdict == 2 && got.why == 1);
	outcome_release(&got);
	CHECK(store_outcome_count(s, id) == 2);
	p.verdict = 0;
	CHECK(store_outcome_put(s, id, &p, &e) == 0);   /* replaces */
	CHECK(store_outcome_count(s, id) == 2);
	CHECK(store_outcome_get(s, id, "k2", &got, &e) == 1 && got.verdict == 0);
	outcome_release(&got);
	store_free(s);
	free(path);
}

static void test_kv_changes(void)
{
	char *path = db_path("c.db");
	struct store *s;
	struct cerr e;
	int64_t id;
	int resumed;
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_open(s, "k", NULL, 0, &id, &resumed, &e) == 0);
	CHECK(store_get(s, id, "x") == NULL);
	CHECK(store_set(s, id, "x", "1", &e) == 0);
	CHECK(store_set(s, id, "x", "it's \"quoted\"; DROP TABLE kv;", &e) == 0);
	char *v = store_get(s, id, "x");
	CHECK_STR(v, "it's \"quoted\"; DROP TABLE kv;");
	free(v);

	const char *ids[] = {"c1", "c2", "c3"};
	const char *json[] = {"[1]", "[2]", "[3]"};
	CHECK(store_changes_put(s, id, ids, json, 3, &e) == 0);
	CHECK(store_changes_count(s, id) == 3);
	CHECK(store_changes_put(s, id, ids + 1, json + 1, 2, &e) == 0);
	CHECK(store_changes_count(s, id) == 2);
	/* A duplicate id fails the whole batch and keeps what was there. */
	const char *dup[] = {"d", "d"};
	CHECK(store_changes_put(s, id, dup, json, 2, &e) < 0);
	CHECK(store_changes_count(s, id) == 2);
	CHECK(store_changes_put(s, id, NULL, NULL, 0, &e) == 0);
	CHECK(store_changes_count(s, id) == 0);
	store_free(s);
	free(path);
}

static void test_events(void)
{
	char *path = db_path("d.db");
	struct store *s;
	struct cerr e;
	int64_t id, other;
	int resumed;
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_open(s, "k", NULL, 0, &id, &resumed, &e) == 0);
	CHECK(store_session_open(s, "other", NULL, 0, &other, &resumed, &e) == 0);
	for (int i = 0; i < 5; i++) {
		char text[16];
		snprintf(text, sizeof(text), "e%d", i);
		CHECK(store_event_add(s, id, "CONFIG_TESTED", text, &e) == 0);
		CHECK(store_event_add(s, other, "OTHER", text, &e) == 0);
	}
	struct event *ev;
	size_t n;
	CHECK(store_events(s, id, 0, 0, &ev, &n, &e) == 0);
	CHECK(n == 5);
	for (size_t i = 0; i < n; i++) {
		char text[32];
		snprintf(text, sizeof(text), "e%zu", i);
		CHECK_STR(ev[i].text, text);
		CHECK_STR(ev[i].type, "CONFIG_TESTED");
		CHECK(i == 0 || ev[i].seq > ev[i - 1].seq);
		CHECK(ev[i].time > 1e9);
	}
	int64_t after = n == 5 ? ev[1].seq : 0;
	store_events_free(ev, n);

	CHECK(store_events(s, id, after, 0, &ev, &n, &e) == 0);
	CHECK(n == 3 && !strcmp(ev[0].text, "e2"));
	store_events_free(ev, n);
	CHECK(store_events(s, id, after, 2, &ev, &n, &e) == 0);
	CHECK(n == 2 && !strcmp(ev[0].text, "e2") && !strcmp(ev[1].text, "e3"));
	store_events_free(ev, n);
	CHECK(store_events(s, id + 100, 0, 0, &ev, &n, &e) == 0);
	CHECK(n == 0);
	store_events_free(ev, n);
	store_free(s);
	free(path);
}

static void test_fresh_latest(void)
{
	char *path = db_path("e.db");
	struct store *s;
	struct cerr e;
	int64_t a, b, a2, latest;
	int resumed;
	char *inputs;
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_latest(s, &latest, &inputs, &e) == 0);
	CHECK(inputs == NULL);
	CHECK(store_session_open(s, "a", "A", 0, &a, &resumed, &e) == 0);
	struct outcome o = make_outcome("x", "l", NULL);
	CHECK(store_outcome_put(s, a, &o, &e) == 0);
	CHECK(store_set(s, a, "n", "v", &e) == 0);
	CHECK(store_event_add(s, a, "T", "t", &e) == 0);
	const char *ids[] = {"c"}, *json[] = {"[]"};
	CHECK(store_changes_put(s, a, ids, json, 1, &e) == 0);
	usleep(2000);
	CHECK(store_session_open(s, "b", "B", 0, &b, &resumed, &e) == 0);
	CHECK(store_session_latest(s, &latest, &inputs, &e) == 1);
	CHECK(latest == b);
	CHECK_STR(inputs, "B");
	free(inputs);
	usleep(2000);
	CHECK(store_session_open(s, "a", "ignored", 0, &a2, &resumed, &e) == 0);
	CHECK(resumed == 1 && a2 == a);
	CHECK(store_session_latest(s, &latest, &inputs, &e) == 1);
	CHECK(latest == a);
	CHECK_STR(inputs, "A");
	free(inputs);

	CHECK(store_session_open(s, "a", "A2", 1, &a2, &resumed, &e) == 0);
	CHECK(resumed == 0);
	CHECK(store_outcome_count(s, a) == 0 && store_outcome_count(s, a2) == 0);
	CHECK(store_get(s, a, "n") == NULL && store_get(s, a2, "n") == NULL);
	CHECK(store_changes_count(s, a) == 0 && store_changes_count(s, a2) == 0);
	struct event *ev;
	size_t n;
	CHECK(store_events(s, a, 0, 0, &ev, &n, &e) == 0 && n == 0);
	store_events_free(ev, n);
	CHECK(store_session_latest(s, &latest, &inputs, &e) == 1);
	CHECK(latest == a2);
	CHECK_STR(inputs, "A2");
	free(inputs);
	store_free(s);
	free(path);
}

static void test_not_a_database(void)
{
	struct store *s = (struct store *)&s;
	struct cerr e;
	char *path = db_path("garbage.db");
	struct buf junk = BUF_INIT;
	for (int i = 0; i < 200; i++)
		buf_adds(&junk, "this is not a database at all\n");
	CHECK(file_write_atomic(path, junk.s, junk.len, 0644, &e) == 0);
	buf_release(&junk);
	CHECK(store_open(&s, path, &e) < 0);
	CHECK(s == NULL);
	char *want = xasprintf("%s: not a culprit session database", path);
	CHECK_STR(e.msg, want);
	free(want);
	free(path);

	/* A short file, and an SQLite database of something else. */
	path = db_path("short.db");
	CHECK(file_write_atomic(path, "hello\n", 6, 0644, &e) == 0);
	CHECK(store_open(&s, path, &e) < 0);
	CHECK(strstr(e.msg, ": not a culprit session database") != NULL);
	free(path);

	path = db_path("other.db");
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "CREATE TABLE photos(id INTEGER PRIMARY KEY)", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(store_open(&s, path, &e) < 0);
	CHECK(strstr(e.msg, "other.db: not a culprit session database") != NULL);
	free(path);

	/* An empty file is a new database. */
	path = db_path("empty.db");
	CHECK(file_write_atomic(path, "", 0, 0644, &e) == 0);
	CHECK(store_open(&s, path, &e) == 0);
	store_free(s);
	free(path);

	path = db_path("missing-dir/x.db");
	CHECK(store_open(&s, path, &e) < 0);
	CHECK(strstr(e.msg, "missing-dir/x.db") != NULL);
	free(path);
}

struct worker {
	struct store *s;
	int64_t session;
	int which, errors;
};

static void *put_many(void *p)
{
	struct worker *w = p;
	struct cerr e;
	for (int i = 0; i < 200; i++) {
		char key[41];
		snprintf(key, sizeof(key), "w%d-%d", w->which, i);
		struct outcome o = make_outcome(key, "label", "exit 1");
		if (store_outcome_put(w->s, w->session, &o, &e) < 0 ||
		    store_event_add(w->s, w->session, "CONFIG_TESTED", key, &e) < 0)
			w->errors++;
		struct outcome got;
		if (store_outcome_get(w->s, w->session, key, &got, &e) != 1)
			w->errors++;
		else
			outcome_release(&got);
	}
	return NULL;
}

static void test_threads(void)
{
	char *path = db_path("f.db");
	struct store *s;
	struct cerr e;
	int64_t id;
	int resumed;
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_session_open(s, "k", NULL, 0, &id, &resumed, &e) == 0);
	struct worker w[2] = {{s, id, 0, 0}, {s, id, 1, 0}};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, put_many, &w[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CHECK(w[0].errors == 0 && w[1].errors == 0);
	CHECK(store_outcome_count(s, id) == 400);
	struct event *ev;
	size_t n;
	CHECK(store_events(s, id, 0, 0, &ev, &n, &e) == 0 && n == 400);
	store_events_free(ev, n);
	store_free(s);

	/* A second connection (another culprit process) sees it all. */
	CHECK(store_open(&s, path, &e) == 0);
	CHECK(store_outcome_count(s, id) == 400);
	store_free(s);
	free(path);
}

int main(void)
{
	struct cerr e;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_open_reopen);
	RUN(test_outcomes);
	RUN(test_kv_changes);
	RUN(test_events);
	RUN(test_fresh_latest);
	RUN(test_not_a_database);
	RUN(test_threads);
	remove_tree(dir, &e);
	TEST_EXIT();
}
