// SPDX-License-Identifier: GPL-2.0
/*
 * Write LEN bytes at OFF of a block device with O_DIRECT through io_uring,
 * every write carrying sqe->write_stream = STREAM (Linux 6.16+; 0: none),
 * 128 KiB per write. For bench/femu's placement probe: which reclaim unit
 * handle of FEMU's FDP device an explicit stream lands on.
 *
 *   uring_write DEV STREAM OFF LEN
 *
 * Exit status 0 if every write completed in full; the first error is
 * printed (EINVAL: the stream is beyond max_write_streams).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/io_uring.h>

#define CHUNK	(128u << 10)

int main(int argc, char **argv)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	unsigned int *tail, *head, *ctail;
	unsigned long long off, len, done;
	unsigned int stream;
	size_t sq_len;
	void *sq, *buf;
	int fd, ring;

	if (argc != 5) {
		fprintf(stderr, "usage: uring_write DEV STREAM OFF LEN\n");
		return 2;
	}
	stream = strtoul(argv[2], NULL, 0);
	off = strtoull(argv[3], NULL, 0);
	len = strtoull(argv[4], NULL, 0);
	fd = open(argv[1], O_WRONLY | O_DIRECT);
	if (fd < 0 || posix_memalign(&buf, 4096, CHUNK)) {
		perror(argv[1]);
		return 1;
	}
	memset(buf, 0x5a ^ stream, CHUNK);
	ring = syscall(__NR_io_uring_setup, 1, &p);
	if (ring < 0) {
		perror("io_uring_setup");
		return 1;
	}
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	if (p.cq_off.cqes + p.cq_entries * sizeof(*cqe) > sq_len)
		sq_len = p.cq_off.cqes + p.cq_entries * sizeof(*cqe);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  ring, IORING_OFF_SQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || sqes == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	head = (unsigned int *)((char *)sq + p.cq_off.head);
	ctail = (unsigned int *)((char *)sq + p.cq_off.tail);
	for (done = 0; done < len; done += CHUNK) {
		int res;

		memset(&sqes[0], 0, sizeof(sqes[0]));
		sqes[0].opcode = IORING_OP_WRITE;
		sqes[0].fd = fd;
		sqes[0].addr = (uintptr_t)buf;
		sqes[0].len = CHUNK;
		sqes[0].off = off + done;
		sqes[0].write_stream = stream;	/* byte 44 */
		((unsigned int *)((char *)sq + p.sq_off.array))[*tail &
			(p.sq_entries - 1)] = 0;
		__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
		if (syscall(__NR_io_uring_enter, ring, 1, 1,
			    IORING_ENTER_GETEVENTS, NULL, 0) < 0) {
			perror("io_uring_enter");
			return 1;
		}
		if (*head == __atomic_load_n(ctail, __ATOMIC_ACQUIRE)) {
			fprintf(stderr, "no completion\n");
			return 1;
		}
		cqe = (struct io_uring_cqe *)((char *)sq + p.cq_off.cqes) +
			(*head & (p.cq_entries - 1));
		res = cqe->res;
		__atomic_store_n(head, *head + 1, __ATOMIC_RELEASE);
		if (res != (int)CHUNK) {
			fprintf(stderr, "write at %llu, stream %u: %s\n", off + done,
				stream, res < 0 ? strerror(-res) : "short");
			return 1;
		}
	}
	return 0;
}
