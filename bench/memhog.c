// SPDX-License-Identifier: GPL-2.0
/* Touch MIB MiB of anonymous memory twice: swap-out pressure in a cgroup. */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	size_t len = (size_t)atol(argc > 1 ? argv[1] : "64") << 20, i;
	char *mem = malloc(len);
	int pass;

	if (!mem)
		return 1;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < len; i += 4096)
			mem[i] = (char)(i >> 12) + pass;
	return 0;
}
