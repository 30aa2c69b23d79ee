// SPDX-License-Identifier: GPL-2.0
/*
 * A varmail-like write pattern for the placement benchmark: each round
 * delivers FILES messages of 16 KiB (created, written, fsynced), deletes
 * the messages of two rounds ago, and files one message in eight into an
 * archive that is kept until it reaches ARCHIVE_MIB (long-lived data
 * written among the short-lived mail). Small files, fsync and unlink make
 * it heavy on the journal and metadata.
 *
 *   mailsim DIR ROUNDS FILES ARCHIVE_MIB
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MSG_SIZE	(16 << 10)
#define KEEP_ONE_IN	8
#define LIVE_ROUNDS	2

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void deliver(const char *path, const char *msg)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		die(path);
	if (write(fd, msg, MSG_SIZE) != MSG_SIZE || fsync(fd))
		die(path);
	close(fd);
}

int main(int argc, char **argv)
{
	char path[512], dst[512], *msg;
	long rounds, files, archive_max, archived = 0, r, i;

	if (argc != 5) {
		fprintf(stderr, "usage: mailsim DIR ROUNDS FILES ARCHIVE_MIB\n");
		return 2;
	}
	rounds = atol(argv[2]);
	files = atol(argv[3]);
	archive_max = atol(argv[4]) * (1 << 20) / MSG_SIZE;
	if (rounds <= 0 || files <= 0 || archive_max < 0) {
		fprintf(stderr, "mailsim: rounds and files must be positive\n");
		return 2;
	}
	msg = malloc(MSG_SIZE);
	if (!msg)
		die("malloc");
	memset(msg, 'm', MSG_SIZE);
	snprintf(path, sizeof(path), "%s/archive", argv[1]);
	if (mkdir(path, 0755) && access(path, F_OK))
		die(path);

	for (r = 0; r < rounds + LIVE_ROUNDS; r++) {
		for (i = 0; i < files; i++) {
			long old = r - LIVE_ROUNDS;

			if (r < rounds) {
				snprintf(path, sizeof(path), "%s/m%ld.%ld",
					 argv[1], r, i);
				msg[0] = (char)i;
				deliver(path, msg);
			}
			if (old < 0)
				continue;
			snprintf(path, sizeof(path), "%s/m%ld.%ld", argv[1],
				 old, i);
			if (i % KEEP_ONE_IN == 0 && archived < archive_max) {
				snprintf(dst, sizeof(dst), "%s/archive/m%ld.%ld",
					 argv[1], old, i);
				if (rename(path, dst))
					die(dst);
				archived++;
			} else if (unlink(path)) {
				die(path);
			}
		}
	}
	free(msg);
	return 0;
}
