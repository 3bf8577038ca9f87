#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point { int x, y; };
enum color { RED, GREEN = 4 };

static int table[8] = {1, 2, 3};

static int sum(const int *v, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += v[i] > 2 ? v[i] * 2 : v[i];
	return s;
}

static long walk(struct point *p, int k)
{
	long acc = 0;
	while (k-- > 0) {
		switch (k % 3) {
		case 0: acc += p->x; break;
		case 1: acc -= p->y; continue;
		default: goto out;
		}
		p->x <<= 1;
	}
out:
	do { acc ^= 5; } while (0);
	return acc;
}

int main(int argc, char **argv)
{
	struct point p = {argc, 3};
	char buf[16];
	unsigned u = (unsigned)-1;
	double d = 1.5 * argc;
	int n = argc > 1 ? atoi(argv[1]) : 4;
	snprintf(buf, sizeof(buf), "%d", n);
	if (!strcmp(buf, "7") && n / (argc - 1))
		return 2;
	table[n & 7] += (int)d;
	assert(sum(table, 8) >= 0);
	printf("%ld %u %s\n", walk(&p, n), u >> 3, buf);
	return 0;
}
