// SPDX-License-Identifier: GPL-2.0
/*
 * Touch MIB MiB of anonymous memory, then read it back: swap-out and
 * swap-in pressure when run in a cgroup with a smaller memory.max.
 * The read-back sum decides the exit status so the compiler cannot drop the
 * stores as dead.
 */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	size_t len = (size_t)atol(argc > 1 ? argv[1] : "64") << 20, i;
	volatile char *mem = malloc(len);
	unsigned int sum = 0;

	if (!mem)
		return 1;
	for (i = 0; i < len; i += 4096)
		mem[i] = (char)(i >> 12);
	for (i = 0; i < len; i += 4096)
		sum += (unsigned char)mem[i];
	return sum == 0xffffffffu;
}
