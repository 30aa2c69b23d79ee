// SPDX-License-Identifier: GPL-2.0
/*
 * A database-like write pattern for the placement benchmark: a write-ahead
 * log appended and fsynced per transaction, random page overwrites in a
 * data file, a history table that only grows (long-lived data, written
 * evenly over the run), and a checkpoint that flushes the data file and
 * the history and starts the log afresh. The log is advised as the
 * transaction class, as a database that knows this series would do.
 *
 *   dbwal DIR DATA_MIB HISTORY_MIB TRANSACTIONS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef POSIX_FADV_IOCLASS_TRANSACTION
#define POSIX_FADV_IOCLASS_TRANSACTION	65
#endif

#define PAGE		4096
#define WAL_RECORD	512
#define PAGES_PER_TX	4
#define TX_PER_CHECKPOINT 256

static void die(const char *what)
{
	perror(what);
	exit(1);
}

int main(int argc, char **argv)
{
	char path[512], page[PAGE], rec[WAL_RECORD];
	long data_pages, hist_pages, hist_done = 0, tx, i, nr_tx;
	int data, wal, hist;

	if (argc != 5) {
		fprintf(stderr, "usage: dbwal DIR DATA_MIB HISTORY_MIB TRANSACTIONS\n");
		return 2;
	}
	data_pages = atol(argv[2]) * (1 << 20) / PAGE;
	hist_pages = atol(argv[3]) * (1 << 20) / PAGE;
	nr_tx = atol(argv[4]);
	if (data_pages <= 0 || hist_pages < 0 || nr_tx <= 0) {
		fprintf(stderr, "dbwal: sizes and count must be positive\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	data = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	snprintf(path, sizeof(path), "%s/wal", argv[1]);
	wal = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0644);
	snprintf(path, sizeof(path), "%s/history", argv[1]);
	hist = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (data < 0 || wal < 0 || hist < 0)
		die("open");
	/* Not fatal: the benchmark also runs on kernels without the advice. */
	posix_fadvise(wal, 0, 0, POSIX_FADV_IOCLASS_TRANSACTION);

	memset(page, 'd', sizeof(page));
	for (i = 0; i < data_pages; i++)
		if (pwrite(data, page, PAGE, i * PAGE) != PAGE)
			die("fill");
	fsync(data);

	srand(42);
	memset(rec, 'w', sizeof(rec));
	for (tx = 1; tx <= nr_tx; tx++) {
		for (i = 0; i < PAGES_PER_TX; i++) {
			long p = rand() % data_pages;

			page[0] = (char)tx;
			if (pwrite(data, page, PAGE, p * PAGE) != PAGE)
				die("page");
		}
		/* History pages spread evenly over the transactions. */
		while (hist_done < hist_pages * tx / nr_tx) {
			if (write(hist, page, PAGE) != PAGE)
				die("history");
			hist_done++;
		}
		if (write(wal, rec, sizeof(rec)) != sizeof(rec) || fdatasync(wal))
			die("wal");
		if (tx % TX_PER_CHECKPOINT == 0) {
			if (fsync(data) || fsync(hist) || ftruncate(wal, 0))
				die("checkpoint");
		}
	}
	fsync(data);
	fsync(hist);
	close(data);
	close(wal);
	close(hist);
	return 0;
}
