#!/bin/sh
# demo-repo.sh DIR: build the demo repository — a small calculator with a
# dozen commits by two authors, and a regression (2+3*4 gives 20) hidden in
# the commit that adds '%', among unrelated edits. v1.0 is good; HEAD is bad.
set -eu
dir=$1
[ -e "$dir" ] && { echo "demo-repo.sh: $dir exists" >&2; exit 2; }
mkdir -p "$dir"
cd "$dir"
git init -q -b main .
export GIT_CONFIG_NOSYSTEM=1
t=1767225600
commit() {   # commit AUTHOR MESSAGE
	t=$((t + 5400))
	case $1 in
	ana) n="Ana Lima" m=ana@example.org ;;
	*) n="Ben Okafor" m=ben@example.org ;;
	esac
	git add -A
	GIT_AUTHOR_NAME=$n GIT_AUTHOR_EMAIL=$m GIT_COMMITTER_NAME=$n GIT_COMMITTER_EMAIL=$m \
	GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" git commit -q -m "$2"
}

cat > Makefile <<'MK'
CFLAGS = -std=c99 -Wall -O0 -g
OBJ = lex.o parse.o main.o
calc: $(OBJ)
	$(CC) $(LDFLAGS) -o $@ $(OBJ)
%.o: %.c calc.h
	$(CC) $(CFLAGS) -c -o $@ $<
clean:
	rm -f calc $(OBJ)
MK
printf 'calc\n*.o\n' > .gitignore
cat > calc.h <<'C'
/* calc: a tiny integer expression calculator. */
#ifndef CALC_H
#define CALC_H

enum tok { T_NUM, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_LPAREN, T_RPAREN, T_END, T_BAD };

struct lexer {
	const char *p;
	enum tok tok;
	long num;
};

void lex_init(struct lexer *l, const char *s);
void lex_next(struct lexer *l);
long parse_expr(struct lexer *l, int *err);

#endif
C
cat > lex.c <<'C'
#include <ctype.h>
#include <stdlib.h>
#include "calc.h"

void lex_init(struct lexer *l, const char *s)
{
	l->p = s;
	lex_next(l);
}

void lex_next(struct lexer *l)
{
	while (isspace((unsigned char)*l->p))
		l->p++;
	char c = *l->p;
	if (c == '\0') {
		l->tok = T_END;
		return;
	}
	if (isdigit((unsigned char)c)) {
		char *end;
		l->num = strtol(l->p, &end, 10);
		l->p = end;
		l->tok = T_NUM;
		return;
	}
	l->p++;
	switch (c) {
	case '+': l->tok = T_PLUS; break;
	case '-': l->tok = T_MINUS; break;
	case '*': l->tok = T_STAR; break;
	case '/': l->tok = T_SLASH; break;
	default: l->tok = T_BAD; break;
	}
}
C
cat > parse.c <<'C'
#include "calc.h"

static long primary(struct lexer *l, int *err)
{
	if (l->tok != T_NUM) {
		*err = 1;
		return 0;
	}
	long v = l->num;
	lex_next(l);
	return v;
}

static long term(struct lexer *l, int *err)
{
	long v = primary(l, err);
	while (l->tok == T_STAR || l->tok == T_SLASH) {
		enum tok op = l->tok;
		lex_next(l);
		long r = primary(l, err);
		if (op == T_STAR)
			v *= r;
		else if (r != 0)
			v /= r;
		else
			*err = 2;
	}
	return v;
}

long parse_expr(struct lexer *l, int *err)
{
	long v = term(l, err);
	while (l->tok == T_PLUS || l->tok == T_MINUS) {
		enum tok op = l->tok;
		lex_next(l);
		long r = term(l, err);
		v = op == T_PLUS ? v + r : v - r;
	}
	return v;
}
C
cat > main.c <<'C'
#include <stdio.h>
#include "calc.h"

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: calc EXPRESSION\n");
		return 2;
	}
	struct lexer l;
	int err = 0;
	lex_init(&l, argv[1]);
	long v = parse_expr(&l, &err);
	if (err || l.tok != T_END) {
		fprintf(stderr, "calc: syntax error\n");
		return 1;
	}
	printf("%ld\n", v);
	return 0;
}
C
commit ana "Calculator: numbers, + - * /"

mkdir -p tests
cat > tests/run.sh <<'SH'
#!/bin/sh
# tests/run.sh NAME: run one named test (see the table below); exit 0 on success.
expect() { out=$(./calc "$1" 2>&1); [ "$out" = "$2" ] || { echo "calc '$1': got '$out', want '$2'"; exit 1; }; }
case ${1:-} in
t1) expect "1+2" 3 ;;
t2) expect "7-2-1" 4 ;;
t3) expect "2+3*4" 14 ;;
t4) expect "8/2/2" 2 ;;
t5) expect "2*3+4" 10 ;;
*) echo "unknown test '${1:-}'"; exit 2 ;;
esac
SH
chmod +x tests/run.sh
commit ana "Add named tests"

sed -i 's/	default: l->tok = T_BAD; break;/	case '"'"'('"'"': l->tok = T_LPAREN; break;\n	case '"'"')'"'"': l->tok = T_RPAREN; break;\n	default: l->tok = T_BAD; break;/' lex.c
perl -0pi -e 's/static long primary\(struct lexer \*l, int \*err\)\n\{\n/static long primary(struct lexer *l, int *err)\n{\n\tif (l->tok == T_LPAREN) {\n\t\tlex_next(l);\n\t\tlong v = parse_expr(l, err);\n\t\tif (l->tok != T_RPAREN)\n\t\t\t*err = 1;\n\t\tlex_next(l);\n\t\treturn v;\n\t}\n/' parse.c
sed -i 's/^t5) expect "2\*3+4" 10 ;;$/t5) expect "2*3+4" 10 ;;\nt6) expect "(1+2)*3" 9 ;;/' tests/run.sh
commit ana "Parentheses"

cat > README <<'TXT'
calc — a tiny integer expression calculator.

    make && ./calc '2+3*4'

Tests: tests/run.sh t1 ... t6
TXT
commit ben "README"

sed -i 's/		fprintf(stderr, "calc: syntax error\\n");/		fprintf(stderr, "calc: syntax error near '"'"'%s'"'"'\\n", l.p);/' main.c
commit ben "Say where the syntax error is"

cat > parse.c <<'C'
#include "calc.h"

/* Binding power of each binary operator: higher binds tighter. */
static int prec(enum tok t)
{
	switch (t) {
	case T_PLUS:
	case T_MINUS:
		return 1;
	case T_STAR:
	case T_SLASH:
		return 2;
	default:
		return 0;
	}
}

static long atom(struct lexer *l, int *err)
{
	if (l->tok == T_LPAREN) {
		lex_next(l);
		long v = parse_expr(l, err);
		if (l->tok != T_RPAREN)
			*err = 1;
		lex_next(l);
		return v;
	}
	if (l->tok != T_NUM) {
		*err = 1;
		return 0;
	}
	long v = l->num;
	lex_next(l);
	return v;
}

static long apply(enum tok op, long a, long b, int *err)
{
	switch (op) {
	case T_PLUS: return a + b;
	case T_MINUS: return a - b;
	case T_STAR: return a * b;
	default:
		if (b == 0) {
			*err = 2;
			return 0;
		}
		return a / b;
	}
}

/* Precedence climbing: parse operators of binding power >= min. */
static long climb(struct lexer *l, int min, int *err)
{
	long v = atom(l, err);
	while (prec(l->tok) >= min && prec(l->tok) > 0) {
		enum tok op = l->tok;
		lex_next(l);
		long r = climb(l, prec(op) + 1, err);
		v = apply(op, v, r, err);
	}
	return v;
}

long parse_expr(struct lexer *l, int *err)
{
	return climb(l, 1, err);
}
C
sed -i 's|/\* calc: a tiny integer expression calculator. \*/|/* calc: a tiny integer expression calculator (precedence climbing). */|' calc.h
commit ben "Parse with precedence climbing"
git tag v1.0

sed -i 's/	while (isspace((unsigned char)\*l->p))/	while (isspace((unsigned char)*l->p)) \/* skip blanks *\//' lex.c
commit ana "Comment the lexer"

# The regression: adding '%' to the precedence table, the level of '*' and
# '/' drops to the level of '+'. The commit has several unrelated hunks.
sed -i 's/T_SLASH, T_LPAREN/T_SLASH, T_PERCENT, T_LPAREN/' calc.h
sed -i "s|	case '/': l->tok = T_SLASH; break;|	case '/': l->tok = T_SLASH; break;\n	case '%': l->tok = T_PERCENT; break;|" lex.c
perl -0pi -e 's/\tcase T_SLASH:\n\t\treturn 2;/\tcase T_SLASH:\n\tcase T_PERCENT:\n\t\treturn 1;/' parse.c
perl -0pi -e 's/\tcase T_STAR: return a \* b;\n/\tcase T_STAR: return a * b;\n\tcase T_PERCENT: return b ? a % b : (*err = 2, 0);\n/' parse.c
sed -i 's|		fprintf(stderr, "usage: calc EXPRESSION\\n");|		fprintf(stderr, "usage: calc EXPRESSION (operators: + - * / %%)\\n");|' main.c
sed -i 's/^t7) expect "((4))" 4 ;;$/t7) expect "((4))" 4 ;;/; s/^t6) expect "(1+2)\*3" 9 ;;$/t6) expect "(1+2)*3" 9 ;;\nt8) expect "7%3" 1 ;;/' tests/run.sh
printf '\nOperators: + - * / %% and parentheses.\n' >> README
commit ana "Add the modulo operator"

printf '\nBuilt with make; no dependencies.\n' >> README
commit ana "README: build notes"

sed -i 's/		return 2;/		return 2; \/* usage *\//' main.c
commit ben "Document exit codes"

sed -i 's/^t6) expect "(1+2)\*3" 9 ;;$/t6) expect "(1+2)*3" 9 ;;\nt7) expect "((4))" 4 ;;/' tests/run.sh
commit ana "Test nested parentheses"

sed -i 's/CFLAGS = -std=c99 -Wall -O0 -g/CFLAGS = -std=c99 -Wall -Wextra -O0 -g/' Makefile
commit ben "Build with -Wextra"

sed -i 's/^clean:$/clean: # remove build products/' Makefile
commit ana "Tidy the Makefile"
