/* Change interaction on a real program's metadata (libclang): two changes
 * feeding one statement meet there; the statement after it carries the
 * same changes and is not a new meeting point; the sequences go on to the
 * output. */
#include "core/semantic/interact.h"
#include "tests/unit/test.h"
#include "tests/unit/traced.h"

static const char prog[] =
	"#include <stdio.h>\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tint a = argc * 2;\n"          /* 4: change 1 */
	"\tint b = argc + 7;\n"          /* 5: change 2 */
	"\tint c = a + 1;\n"             /* 6: change 1 only */
	"\tint d = c * b;\n"             /* 7: where they meet */
	"\tint e = d - 1;\n"             /* 8: both, not new */
	"\tint u = argc;\n"              /* 9: neither */
	"\tprintf(\"%d %d\\n\", e, u);\n"  /* 10: output */
	"\treturn argv == 0;\n"
	"}\n";

static void test_meeting_point(void)
{
	struct tmeta m;
	struct trace t;
	if (traced("ia", prog, "./p > /dev/null", NULL, &m, &t) < 0) {
		CHECK(!"traced");
		return;
	}
	struct change_file f = {.old_path = "p.c", .new_path = "p.c", .new_data = (char *)prog,
				.new_len = sizeof(prog) - 1, .change0 = 0, .nchanges = 2};
	struct change ch[2] = {{.id = 1, .file = 0, .kind = CHANGE_HUNK, .old_start = 4, .old_lines = 1,
				.new_start = 4, .new_lines = 1},
			       {.id = 2, .file = 0, .kind = CHANGE_HUNK, .old_start = 5, .old_lines = 1,
				.new_start = 5, .new_lines = 1}};
	struct change_set s = {.files = &f, .nfiles = 1, .changes = ch, .nchanges = 2};
	struct interact ia;
	CHECK(interact_analyze(&ia, &m, &s) == 0);
	CHECK(ia.nlocs == 1);
	if (ia.nlocs == 1) {
		CHECK_STR(ia.locs[0].file, "p.c");
		CHECK(ia.locs[0].line == 7);
		CHECK(ia.locs[0].nchanges == 2);
	}
	CHECK(ia.group[0] == 0 && ia.group[1] == 0);
	int through = 0;
	for (size_t i = 0; i < ia.nseqs; i++)
		through += ia.seqs[i].loc == 0 && ia.seqs[i].out_line == 10;
	CHECK(through == 2);   /* #1 -> p.c:7 -> p.c:10, and #2 */
	/* Back from JSON, the same. */
	unsigned ids[2] = {1, 2};
	struct buf b = BUF_INIT;
	interact_json(&ia, ids, &b);
	struct interact back;
	struct cerr e;
	CHECK(interact_from_json(&back, b.s, b.len, ids, 2, &e) == 0);
	CHECK(back.nlocs == 1 && back.locs[0].line == 7 && back.nseqs == ia.nseqs && back.group[1] == 0);
	interact_release(&back);
	buf_release(&b);
	interact_release(&ia);
	/* One change alone meets nothing. */
	s.nchanges = 1;
	CHECK(interact_analyze(&ia, &m, &s) == 0);
	CHECK(ia.nlocs == 0 && ia.group[0] == -1 && ia.nseqs >= 1);
	interact_release(&ia);
	trace_release(&t);
	tmeta_release(&m);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/culprit-interact.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_meeting_point);
	if (!getenv("KEEP"))
		remove_tree(dir, NULL);
	TEST_EXIT();
}
