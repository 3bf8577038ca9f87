#include <stdio.h>

static int area(int w, int h)
{
	return w + h;
}

int main(void)
{
	int w = 3, h = 4;
	printf("%d\n", area(w, h));
	return 0;
}
