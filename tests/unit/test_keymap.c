/* keymap: key names, the file syntax and its errors, lookup, dump. */
#include <ctype.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "keymaps/keymap.h"
#include "tests/unit/test.h"

static struct buf warnings;

static void collect(void *priv, const char *msg)
{
	(void)priv;
	buf_adds(&warnings, msg);
	buf_addc(&warnings, '\n');
}

static void test_key_names(void)
{
	const char *names[] = {"j", "G", "?", "/", ":", "1", "<Tab>", "<S-Tab>", "<Enter>", "<Esc>", "<Space>",
			       "<Backspace>", "<Up>", "<Down>", "<Left>", "<Right>", "<PgUp>", "<PgDn>", "<Home>",
			       "<End>", "<Ins>", "<Del>", "<F1>", "<F5>", "<F12>", "<C-a>", "<C-n>", "<C-z>", "<lt>"};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		char buf[16];
		int k = keymap_key_parse(names[i]);
		CHECK(k > 0);
		CHECK_STR(keymap_key_name(k, buf), names[i]);
	}
	CHECK(keymap_key_parse("<tab>") == '\t');
	CHECK(keymap_key_parse("<c-N>") == 14);
	CHECK(keymap_key_parse("<pgdn>") == KEY_NPAGE);
	CHECK(keymap_key_parse("<Foo>") < 0);
	CHECK(keymap_key_parse("<F13>") < 0);
	CHECK(keymap_key_parse("ab") < 0);
	CHECK(keymap_key_parse("<") < 0);
	CHECK(keymap_key_parse("<C-1>") < 0);
	CHECK(keymap_key_parse("") < 0);
}

static void test_defaults_load_clean(void)
{
	for (int style = KEYMAP_VI; style <= KEYMAP_EMACS; style++) {
		struct keymap *km = keymap_new((enum keymap_style)style);
		struct buf dump = BUF_INIT;
		keymap_dump(km, &dump);
		/* Every action has a key in both styles. */
		for (int a = 1; a < KA_COUNT; a++) {
			struct buf keys = BUF_INIT;
			for (int sc = 0; sc < KS_COUNT; sc++)
				keymap_keys_for(km, (enum keymap_scope)sc, (enum keymap_action)a, &keys);
			if (!keys.len)
				printf("  %s has no key in style %d\n", keymap_action_name((enum keymap_action)a), style);
			CHECK(keys.len > 0);
			buf_release(&keys);
		}
		struct keymap *again = keymap_new((enum keymap_style)style);
		buf_reset(&warnings);
		CHECK(keymap_load_string(again, dump.s, "dump", collect, NULL) == 0);
		struct buf dump2 = BUF_INIT;
		keymap_dump(again, &dump2);
		CHECK_STR(dump.s, dump2.s);
		buf_release(&dump);
		buf_release(&dump2);
		keymap_free(km);
		keymap_free(again);
	}
}

static void test_lookup(void)
{
	struct keymap *km = keymap_new(KEYMAP_VI);
	enum keymap_action a = KA_NONE;
	int k[2] = {'s', 0};
	CHECK(keymap_lookup(km, KS_DIFF, k, 1, &a) == KM_ACTION && a == KA_STEP);
	k[0] = 'g';
	CHECK(keymap_lookup(km, KS_TREE, k, 1, &a) == KM_PREFIX);
	k[1] = 'g';
	CHECK(keymap_lookup(km, KS_TREE, k, 2, &a) == KM_ACTION && a == KA_MOVE_FIRST);
	k[1] = 'x';
	CHECK(keymap_lookup(km, KS_TREE, k, 2, &a) == KM_NONE);
	k[0] = 'y';
	CHECK(keymap_lookup(km, KS_GENERIC, k, 1, &a) == KM_NONE);
	keymap_free(km);
}

static void test_user_file(void)
{
	struct keymap *km = keymap_new(KEYMAP_VI);
	buf_reset(&warnings);
	int bad = keymap_load_string(km,
				     "# my keys\n"
				     "bind generic x step\n"
				     "unbind generic s\n"
				     "bind diff <C-n> move-down\n"
				     "bind generic y frobnicate\n"
				     "bind nowhere j move-down\n"
				     "bind generic <Bogus> quit\n"
				     "bind generic\n"
				     "fly me to the moon\n"
				     "set keys emacs\n"
				     "bind tree w zoom\n",
				     "keymap", collect, NULL);
	CHECK(bad == 6);
	CHECK(strstr(warnings.s, "keymap:5: unknown action 'frobnicate'") != NULL);
	CHECK(strstr(warnings.s, "keymap:6: unknown scope 'nowhere'") != NULL);
	CHECK(strstr(warnings.s, "keymap:7: unknown key name '<Bogus>'") != NULL);
	CHECK(strstr(warnings.s, "keymap:8: expected: bind SCOPE KEYS ACTION") != NULL);
	CHECK(strstr(warnings.s, "keymap:9: unknown command 'fly'") != NULL);
	CHECK(strstr(warnings.s, "keymap:10: 'set keys' must be the first line") != NULL);
	enum keymap_action a = KA_NONE;
	int k[2] = {'x', 0};
	CHECK(keymap_lookup(km, KS_TRACE, k, 1, &a) == KM_ACTION && a == KA_STEP);
	k[0] = 's';
	CHECK(keymap_lookup(km, KS_TRACE, k, 1, &a) == KM_NONE);
	k[0] = 14;
	CHECK(keymap_lookup(km, KS_DIFF, k, 1, &a) == KM_ACTION && a == KA_MOVE_DOWN);
	CHECK(keymap_lookup(km, KS_TRACE, k, 1, &a) == KM_NONE);   /* only in diff */
	k[0] = 'w';
	CHECK(keymap_lookup(km, KS_TREE, k, 1, &a) == KM_ACTION && a == KA_ZOOM);   /* after the bad lines */
	/* An overlong line is an error, and the lines after it still load. */
	struct buf big = BUF_INIT;
	for (int i = 0; i < 3000; i++)
		buf_addc(&big, 'a');
	buf_adds(&big, "\nbind generic Q quit\n");
	buf_reset(&warnings);
	CHECK(keymap_load_string(km, big.s, "big", collect, NULL) == 1);
	CHECK(strstr(warnings.s, "big:1: line too long") != NULL);
	k[0] = 'Q';
	CHECK(keymap_lookup(km, KS_GENERIC, k, 1, &a) == KM_ACTION && a == KA_QUIT);
	buf_release(&big);
	keymap_free(km);
}

static void test_files_and_styles(void)
{
	char dir[] = "/tmp/culprit-keymap.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *path = xasprintf("%s/keymap", dir);
	struct cerr e;
	CHECK(file_write_atomic(path, "set keys emacs\nbind generic x run\n", 35, 0644, &e) == 0);
	CHECK(keymap_file_style(path) == KEYMAP_EMACS);
	struct keymap *km = keymap_new(KEYMAP_EMACS);
	buf_reset(&warnings);
	CHECK(keymap_load_file(km, path, collect, NULL) == 0);
	enum keymap_action a;
	int k[2] = {14, 0};   /* <C-n> in emacs style */
	CHECK(keymap_lookup(km, KS_GENERIC, k, 1, &a) == KM_ACTION && a == KA_MOVE_DOWN);
	k[0] = 'x';
	CHECK(keymap_lookup(km, KS_GENERIC, k, 1, &a) == KM_ACTION && a == KA_RUN);
	char *missing = xasprintf("%s/none", dir);
	CHECK(keymap_load_file(km, missing, collect, NULL) == 0);
	CHECK(keymap_file_style(missing) == -1);
	setenv("XDG_CONFIG_HOME", "/x/y", 1);
	char *d = keymap_default_path();
	CHECK_STR(d, "/x/y/culprit/keymap");
	free(d);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", "/home/u", 1);
	d = keymap_default_path();
	CHECK_STR(d, "/home/u/.config/culprit/keymap");
	free(d);
	keymap_free(km);
	remove_tree(dir, NULL);
	free(path);
	free(missing);
}

/* culprit-keymap(5) documents every action with its help text. */
static void test_man_page(void)
{
	struct buf man = BUF_INIT;
	struct cerr e;
	CHECK(file_read("man/culprit-keymap.5", &man, 1 << 20, &e) == 0);
	if (!man.s)
		return;
	char *w = man.s;   /* roff's \- as a plain - */
	for (const char *r = man.s; *r; r++)
		if (!(r[0] == '\\' && r[1] == '-'))
			*w++ = *r;
	*w = '\0';
	for (int a = 1; a < KA_COUNT; a++) {
		const char *help = keymap_action_help((enum keymap_action)a);
		char *entry = xasprintf(".B %s\n%c%s.\n", keymap_action_name((enum keymap_action)a),
					toupper((unsigned char)help[0]), help + 1);
		if (!strstr(man.s, entry))
			printf("  culprit-keymap.5 lacks: %s", entry);
		CHECK(strstr(man.s, entry) != NULL);
		free(entry);
	}
	buf_release(&man);
}

int main(void)
{
	RUN(test_key_names);
	RUN(test_defaults_load_clean);
	RUN(test_lookup);
	RUN(test_user_file);
	RUN(test_files_and_styles);
	RUN(test_man_page);
	buf_release(&warnings);
	TEST_EXIT();
}
