// SPDX-License-Identifier: GPL-2.0
/*
 * Write streams against an FDP device we did not write: QEMU's emulated
 * NVMe Flexible Data Placement (QEMU >= 9.0.2), not nvmet.
 *
 * nvme_streams_test checks the host against nvmet's FDP, which this
 * series adds with the same include/linux/nvme.h on both ends, so a
 * misreading of the specification shared by both passes there. Here the
 * device is QEMU's, and every assertion about placement is read from what
 * the device itself reports, through NVMe passthrough (no nvme-cli):
 *
 *  - Reclaim Unit Handle Status (I/O Management Receive, opcode 12h,
 *    MO 01h): per placement handle its placement identifier, its reclaim
 *    unit handle and the Reclaim Unit Available Media Writes (RUAMW, in
 *    logical blocks), which drops by the blocks written through it;
 *  - the FDP Statistics log page (22h): Host Bytes with Metadata Written
 *    for the whole endurance group, which says that nothing else was
 *    written;
 *  - Identify, Get Features (FDP, 1Dh), FDP Configurations (20h),
 *    Reclaim Unit Handle Usage (21h) and the Identify Directive: what the
 *    device offers.
 *
 * The VM (scripts/test-qemu-fdp.sh) has two QEMU NVMe controllers: serial
 * "qemu-fdp", in an FDP subsystem with NR_RUH reclaim unit handles and one
 * reclaim group, whose namespace lists the handles in reverse order
 * (placement handle h is reclaim unit handle NR_RUH - 1 - h, so that a
 * host confusing the two is caught); and serial "qemu-plain", without FDP,
 * the device without directives. (A third, serial "qemu-bench", in an FDP
 * subsystem of its own, is scripts/guest/bench-real.sh's, after this test.)
 *
 * The host must offer the placement handles as write streams, stream s on
 * placement handle s - 1; an io_uring write with sqe->write_stream = s
 * must use handle s - 1 and nothing else; a write without a stream must
 * use the handle of the stream that debugfs write_stream_map gives its
 * class or lifetime hint (swap-out included); files on xfs, written at
 * once, must land each on one handle of the files range, the same one
 * after a remount, and spread over at least three of them; the device
 * without FDP must have no streams and take every write. QEMU puts a
 * write without a directive on placement handle 0, where stream 1
 * (transaction) goes as well: for that one class the nvme_setup_cmd
 * trace shows that the driver did send the directive. Output: TAP, one
 * line per assertion; exit status 0 only if every assertion passed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fadvise.h>	/* the series' POSIX_FADV_IOCLASS_* */
#include <linux/io_uring.h>
#include <linux/ioprio.h>
#include <linux/nvme_ioctl.h>
/* linux/fs.h, via io_uring.h, has one that nobody here wants. */
#undef BLOCK_SIZE

#include "../kselftest.h"

#ifndef F_LINUX_SPECIFIC_BASE
#define F_LINUX_SPECIFIC_BASE	1024
#endif
#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT		(F_LINUX_SPECIFIC_BASE + 12)
#endif
#ifndef POSIX_FADV_IOCLASS_DATA
#define POSIX_FADV_IOCLASS_DATA		64
#define POSIX_FADV_IOCLASS_TRANSACTION	65
#define POSIX_FADV_IOCLASS_METADATA	66
#define POSIX_FADV_IOCLASS_REALTIME	68
#define POSIX_FADV_IOCLASS_BACKGROUND	69
#endif
#ifndef RWH_WRITE_LIFE_NOT_SET
#define RWH_WRITE_LIFE_NOT_SET	0
#define RWH_WRITE_LIFE_SHORT	2
#define RWH_WRITE_LIFE_MEDIUM	3
#define RWH_WRITE_LIFE_LONG	4
#define RWH_WRITE_LIFE_EXTREME	5
#endif

/* What scripts/test-qemu-fdp.sh gives QEMU. */
#define FDP_SERIAL	"qemu-fdp"
#define PLAIN_SERIAL	"qemu-plain"
#define NR_RUH		8
#define FDP_RUNS	(128ULL << 20)	/* more than the test writes on a handle */

#define IO_SIZE		4096
#define NR_WRITES	16		/* per derived-stream check */
#define MAX_PIDS	127		/* what fits in RUHS_LEN */

/* NVMe opcodes and log pages (NVMe Base 2.1, NVM Command Set 1.1). */
#define NVME_ADMIN_GET_LOG	0x02
#define NVME_ADMIN_IDENTIFY	0x06
#define NVME_ADMIN_GET_FEATURES	0x0a
#define NVME_ADMIN_DIR_RECV	0x1a
#define NVME_CMD_WRITE		0x01
#define NVME_CMD_IO_MGMT_RECV	0x12
#define NVME_FEAT_FDP		0x1d
#define LOG_FDP_CONFIGS		0x20
#define LOG_FDP_RUH_USAGE	0x21
#define LOG_FDP_STATS		0x22
#define CTRATT_FDPS		(1u << 19)
#define DTYPE_DATA_PLACEMENT	2

static const struct {
	const char *what;	/* write_stream_map key */
	int advice;		/* posix_fadvise class advice, 0: none */
	uint64_t hint;		/* F_SET_RW_HINT */
	int ioprio_class;	/* IOPRIO_CLASS_*, 0: none */
	const char *name;
} derived[] = {
	{ "transaction", POSIX_FADV_IOCLASS_TRANSACTION, 0, 0,
	  "transaction class (fadvise)" },
	{ "background", POSIX_FADV_IOCLASS_BACKGROUND, 0, 0,
	  "background class (fadvise)" },
	{ "metadata", POSIX_FADV_IOCLASS_METADATA, 0, 0,
	  "metadata class (fadvise)" },
	{ "realtime", POSIX_FADV_IOCLASS_REALTIME, 0, 0,
	  "realtime class (fadvise)" },
	{ "background", 0, 0, IOPRIO_CLASS_IDLE, "ionice -c3 (idle)" },
	{ "realtime", 0, 0, IOPRIO_CLASS_RT, "ionice -c1 (realtime)" },
	{ "lifetime-short", 0, RWH_WRITE_LIFE_SHORT, 0, "lifetime hint short" },
	{ "lifetime-medium", 0, RWH_WRITE_LIFE_MEDIUM, 0,
	  "lifetime hint medium" },
	{ "lifetime-long", 0, RWH_WRITE_LIFE_LONG, 0, "lifetime hint long" },
	{ "lifetime-extreme", 0, RWH_WRITE_LIFE_EXTREME, 0,
	  "lifetime hint extreme" },
	{ "files", 0, 0, 0, "plain data (no class, no hint)" },
};
#define NR_DERIVED	ARRAY_SIZE(derived)

/* Documentation/block/io-hints.rst, the table row for 8 streams. */
static const char map8[] =
	"transaction 1\nbackground 2\nmetadata 3\npaging 4\nrealtime data\n"
	"lifetime-short 5\nlifetime-medium 6\nlifetime-long 7\n"
	"lifetime-extreme 8\nfiles 5-8\n";

#define NR_FILES_TESTS	8
#define PLAN	(8 + 3 + (NR_RUH + 1) + NR_DERIVED + 1 + 2 + 2 + \
		 NR_FILES_TESTS + 5 + 1)

struct fdp_dev {
	char disk[32];		/* nvmeXnY */
	int fd;			/* /dev/nvmeXnY, O_DIRECT */
	uint32_t nsid;
	uint16_t endgid;	/* endurance group (LSI of the FDP logs) */
	unsigned int lba;	/* logical block size */
	unsigned int nr;	/* placement handles (RUH Status descriptors) */
	uint64_t runs;		/* reclaim unit nominal size, bytes */
	uint16_t pid[MAX_PIDS];
	uint16_t ruhid[MAX_PIDS];
};

/* What the device says at one moment: RUAMW per handle, group counters. */
struct snap {
	uint64_t ruamw[MAX_PIDS];
	uint64_t hbmw, mbmw;
};

static uint64_t bytes_written;	/* by this test, to the FDP namespace */

static uint16_t get16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static long read_queue_long(const char *disk, const char *attr)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, attr);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

/* The namespace disk (nvmeXnY) of the controller whose serial is @serial. */
static int find_disk(const char *serial, char *disk, size_t len)
{
	char path[300], buf[64], *end;
	struct dirent *de;
	DIR *d = opendir("/sys/block");

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "nvme", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/device/serial",
			 de->d_name);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		for (end = buf + strlen(buf); end > buf && isspace(end[-1]); )
			*--end = '\0';
		if (!strcmp(buf, serial) && strlen(de->d_name) < len) {
			snprintf(disk, len, "%s", de->d_name);
			closedir(d);
			return 0;
		}
	}
	closedir(d);
	return -1;
}

static int admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10,
		 uint32_t cdw11, void *buf, uint32_t len, uint32_t *result)
{
	struct nvme_admin_cmd c = {
		.opcode = opcode, .nsid = nsid, .cdw10 = cdw10, .cdw11 = cdw11,
		.addr = (uintptr_t)buf, .data_len = len,
	};
	int ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);

	if (result)
		*result = c.result;
	return ret;
}

static int identify(int fd, uint32_t nsid, uint8_t cns, void *buf)
{
	return admin(fd, NVME_ADMIN_IDENTIFY, nsid, cns, 0, buf, 4096, NULL);
}

/* Get Log Page of an endurance-group log (LSI = @endgid). */
static int get_log(int fd, uint8_t lid, uint16_t endgid, void *buf,
		   uint32_t len)
{
	uint32_t numd = len / 4 - 1;

	return admin(fd, NVME_ADMIN_GET_LOG, 0xffffffff,
		     lid | (numd & 0xffff) << 16, numd >> 16 | endgid << 16,
		     buf, len, NULL);
}

/* Reclaim Unit Handle Status into @buf; 0 or the status/errno. */
static int ruh_status(struct fdp_dev *d, uint8_t *buf, uint32_t len)
{
	struct nvme_passthru_cmd c = {
		.opcode = NVME_CMD_IO_MGMT_RECV, .nsid = d->nsid,
		.cdw10 = 1,			/* MO 01h: RUH Status */
		.cdw11 = len / 4 - 1,		/* NUMD, 0's based */
		.addr = (uintptr_t)buf, .data_len = len,
	};

	memset(buf, 0, len);
	return ioctl(d->fd, NVME_IOCTL_IO_CMD, &c);
}

/*
 * One page, page-aligned: a single data descriptor. QEMU transfers only
 * the structure, not the NUMD the host asked for, and fails a command
 * whose SGL has descriptors beyond it with Data SGL Length Invalid (Base
 * 2.1 7.3: "If the host reads beyond the size of the Reclaim Unit Handle
 * Status data structure, zeroes are returned").
 */
#define RUHS_LEN	4096

static int take_snap(struct fdp_dev *d, struct snap *s)
{
	static uint8_t buf[RUHS_LEN] __attribute__((aligned(4096)));
	uint8_t stats[64];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	if (ruh_status(d, buf, sizeof(buf)))
		return -1;
	if (get16(buf + 14) != d->nr)
		return -1;
	for (i = 0; i < d->nr; i++) {
		const uint8_t *desc = buf + 16 + 32 * i;

		if (get16(desc) != d->pid[i])
			return -1;
		s->ruamw[i] = get64(desc + 8);
	}
	/* FDP Statistics: HBMW, MBMW, MBE as 128-bit counters. */
	if (get_log(d->fd, LOG_FDP_STATS, d->endgid, stats, sizeof(stats)))
		return -1;
	s->hbmw = get64(stats);
	s->mbmw = get64(stats + 16);
	return 0;
}

/*
 * Between @a and @b, @lbas logical blocks landed on placement handle @h
 * and nothing on any other (@h < 0: on none), and the endurance group
 * counted exactly @bytes host bytes written. Says what it saw if not.
 */
static bool landed(const struct fdp_dev *d, const struct snap *a,
		   const struct snap *b, int h, uint64_t lbas, uint64_t bytes)
{
	bool ok = h < (int)d->nr;
	unsigned int i;

	for (i = 0; i < d->nr; i++) {
		int64_t got = (int64_t)(a->ruamw[i] - b->ruamw[i]);
		int64_t want = (int)i == h ? (int64_t)lbas : 0;

		if (got != want) {
			ksft_print_msg("placement handle %u (RUH %u): %" PRId64
				       " blocks written, expected %" PRId64 "\n",
				       i, d->ruhid[i], got, want);
			ok = false;
		}
	}
	if (b->hbmw - a->hbmw != bytes) {
		ksft_print_msg("FDP statistics: %" PRIu64
			       " host bytes written, expected %" PRIu64 "\n",
			       b->hbmw - a->hbmw, bytes);
		ok = false;
	}
	return ok;
}

/* The placement handle that took all of a snapshot pair's writes, or -1. */
static int the_handle(const struct fdp_dev *d, const struct snap *a,
		      const struct snap *b)
{
	int h = -1;
	unsigned int i;

	for (i = 0; i < d->nr; i++) {
		if (a->ruamw[i] == b->ruamw[i])
			continue;
		if (h >= 0)
			return -1;
		h = i;
	}
	return h;
}

/*
 * One write of @len bytes at @off through io_uring with sqe->write_stream
 * = @stream, on a ring of its own (no liburing: its headers may predate
 * the field). The completion's result: bytes written or -errno.
 */
static int uring_write(int fd, const void *buf, unsigned int len, off_t off,
		       unsigned int stream)
{
	struct io_uring_params p = { 0 };
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqe;
	unsigned int *tail, *head, *ctail;
	size_t sq_len, sqes_len;
	void *sq;
	int ring, ret;

	ring = syscall(__NR_io_uring_setup, 1, &p);
	if (ring < 0)
		return -errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	if (p.cq_off.cqes + p.cq_entries * sizeof(*cqe) > sq_len)
		sq_len = p.cq_off.cqes + p.cq_entries * sizeof(*cqe);
	sqes_len = p.sq_entries * sizeof(*sqes);
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQ_RING);
	sqes = mmap(NULL, sqes_len, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || sqes == MAP_FAILED) {
		close(ring);
		return -ENOMEM;
	}
	memset(&sqes[0], 0, sizeof(sqes[0]));
	sqes[0].opcode = IORING_OP_WRITE;
	sqes[0].fd = fd;
	sqes[0].addr = (uintptr_t)buf;
	sqes[0].len = len;
	sqes[0].off = off;
	sqes[0].write_stream = stream;	/* byte 44 */
	tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	((unsigned int *)((char *)sq + p.sq_off.array))[*tail &
		(p.sq_entries - 1)] = 0;
	__atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);

	ret = syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS,
		      NULL, 0);
	if (ret < 0) {
		ret = -errno;
	} else {
		head = (unsigned int *)((char *)sq + p.cq_off.head);
		ctail = (unsigned int *)((char *)sq + p.cq_off.tail);
		if (*head == __atomic_load_n(ctail, __ATOMIC_ACQUIRE)) {
			ret = -EIO;
		} else {
			cqe = (struct io_uring_cqe *)((char *)sq +
				p.cq_off.cqes) + (*head & (p.cq_entries - 1));
			ret = cqe->res;
			__atomic_store_n(head, *head + 1, __ATOMIC_RELEASE);
		}
	}
	munmap(sqes, sqes_len);
	munmap(sq, sq_len);
	close(ring);
	return ret;
}

/* The stream write_stream_map gives @what: its number, 0 for "data", -1. */
static int map_stream(const char *map, const char *what, int *last)
{
	char key[32], val[32];
	const char *line;
	int first, end;

	for (line = map; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		if (sscanf(line, "%31s %31s", key, val) != 2 ||
		    strcmp(key, what))
			continue;
		if (!strcmp(val, "data"))
			return 0;
		if (sscanf(val, "%d-%d", &first, &end) == 2) {
			if (last)
				*last = end;
			return first;
		}
		if (last)
			*last = atoi(val);
		return atoi(val);
	}
	return -1;
}

static int set_ioprio(int class)
{
	return syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		       class ? IOPRIO_PRIO_VALUE(class, class == IOPRIO_CLASS_RT ?
						 4 : 0) :
			       IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0));
}

static void *io_buf(char fill)
{
	void *buf;

	if (posix_memalign(&buf, IO_SIZE, IO_SIZE * NR_WRITES))
		ksft_exit_fail_msg("out of memory\n");
	memset(buf, fill, IO_SIZE * NR_WRITES);
	return buf;
}

/* Direct writes of NR_WRITES blocks of IO_SIZE at @first. */
static int write_blocks(int fd, const void *buf, off_t first)
{
	int i;

	for (i = 0; i < NR_WRITES; i++)
		if (pwrite(fd, buf, IO_SIZE, first + (off_t)i * IO_SIZE) !=
		    IO_SIZE)
			return -1;
	return 0;
}

/* Part 1: what QEMU's FDP controller and namespace report. */
static void device_reports(struct fdp_dev *d)
{
	static uint8_t buf[RUHS_LEN] __attribute__((aligned(4096)));
	uint8_t id[4096], log[4096];
	uint32_t ctratt, result = 0, nrg = 0, sze;
	uint16_t endgid, nruh = 0;
	uint64_t runs = 0;
	unsigned int i, host = 0;
	bool ok;
	int ret;

	ret = identify(d->fd, 0, 1, id);
	ctratt = ret ? 0 : get32(id + 96);
	ksft_test_result(!ret && (ctratt & CTRATT_FDPS),
			 "fdp.device: Identify Controller CTRATT.FDPS is set (CTRATT %#x)\n",
			 ctratt);

	ret = identify(d->fd, d->nsid, 0, id);
	endgid = ret ? 0 : get16(id + 102);
	d->endgid = endgid;
	ksft_test_result(endgid == 1,
			 "fdp.device: the namespace is in endurance group %u\n",
			 endgid);

	ret = admin(d->fd, NVME_ADMIN_GET_FEATURES, 0, NVME_FEAT_FDP, endgid,
		    NULL, 0, &result);
	ksft_test_result(!ret && (result & 1) && !((result >> 8) & 0xff),
			 "fdp.device: Get Features FDP: enabled, configuration 0 (%#x, ret %d)\n",
			 result, ret);

	memset(log, 0, sizeof(log));
	ret = get_log(d->fd, LOG_FDP_CONFIGS, endgid, log, sizeof(log));
	sze = get32(log + 4);
	if (!ret && sze >= 16 + 64 && sze <= sizeof(log)) {
		const uint8_t *desc = log + 16;

		ok = desc[2] & 0x80;		/* FDPA.Valid */
		nrg = get32(desc + 4);
		nruh = get16(desc + 8);
		runs = get64(desc + 16);
		d->runs = runs;
	} else {
		ok = false;
	}
	ksft_test_result(ok && nrg == 1 && nruh == NR_RUH && runs == FDP_RUNS,
			 "fdp.device: FDP Configurations log: valid, NRG %u, NRUH %u, RUNS %" PRIu64 " MiB\n",
			 nrg, nruh, runs >> 20);

	/* Reclaim Unit Handle Status: the namespace's placement handles. */
	ret = ruh_status(d, buf, sizeof(buf));
	if (ret)
		ksft_print_msg("I/O Management Receive: %d (%s)\n", ret,
			       ret < 0 ? strerror(errno) : "NVMe status");
	d->nr = ret ? 0 : get16(buf + 14);
	if (d->nr > MAX_PIDS)
		d->nr = MAX_PIDS;
	ok = !ret && d->nr == NR_RUH;
	for (i = 0; i < d->nr; i++) {
		const uint8_t *desc = buf + 16 + 32 * i;

		d->pid[i] = get16(desc);
		d->ruhid[i] = get16(desc + 2);
		ksft_print_msg("RUH Status %u: PID %#x RUHID %u RUAMW %" PRIu64 "\n",
			       i, d->pid[i], d->ruhid[i], get64(desc + 8));
		/* One reclaim group: RGIF 0, PID = placement handle. */
		if (d->pid[i] != i || d->ruhid[i] != NR_RUH - 1 - i ||
		    get64(desc + 8) != FDP_RUNS / d->lba)
			ok = false;
	}
	ksft_test_result(ok,
			 "fdp.device: RUH Status: %u placement handles, PID h on RUH %u-h, RUAMW a full reclaim unit\n",
			 d->nr, NR_RUH - 1);

	/*
	 * Identify Directive, Return Parameters (Base 2.1 Figure 601): bit 2
	 * of Directives Supported (byte 0) and Enabled (byte 32) is the Data
	 * Placement Directive. "The host is required to enable the Data
	 * Placement Directive to submit write commands that specify a
	 * Placement Identifier" (8.1.10); with no I/O directive enabled a
	 * device ignores DTYPE and DSPEC. QEMU reports it enabled (and
	 * persistent) as soon as FDP is, and fails Directive Send, so the
	 * host must read this and leave it alone; nvmet, which starts a
	 * namespace with it disabled, checks that the host enables it.
	 */
	memset(log, 0, sizeof(log));
	ret = admin(d->fd, NVME_ADMIN_DIR_RECV, d->nsid, sizeof(log) / 4 - 1,
		    0x01, log, sizeof(log), NULL);	/* DTYPE 0, DOPER 1 */
	ksft_test_result(!ret && (log[0] & 4) && (log[32] & 4),
			 "fdp.device: Identify Directive: Data Placement supported %d, enabled %d\n",
			 !!(log[0] & 4), !!(log[32] & 4));

	memset(log, 0, sizeof(log));
	ret = get_log(d->fd, LOG_FDP_RUH_USAGE, endgid, log, 8 + 8 * NR_RUH);
	for (i = 0; !ret && i < NR_RUH && i < get16(log); i++)
		host += log[8 + 8 * i] == 1;	/* RUHA: host specified */
	ksft_test_result(!ret && get16(log) == NR_RUH && host == NR_RUH,
			 "fdp.device: RUH Usage log: %u handles, %u host-specified\n",
			 get16(log), host);

}

/*
 * The placement identifier the driver must send is the one RUH Status
 * lists; QEMU must place by it. A passthrough write (not through the
 * block layer's streams) with DTYPE 2 in CDW12 23:20 and the PID in the
 * DSPEC field, CDW13 31:16, as the specification puts them.
 */
static void device_places(struct fdp_dev *d)
{
	unsigned int h = NR_RUH - 3;
	void *data = io_buf('p');
	struct snap a, b;
	bool ok;
	struct nvme_passthru_cmd c = {
		.opcode = NVME_CMD_WRITE, .nsid = d->nsid,
		.addr = (uintptr_t)data, .data_len = IO_SIZE,
		.cdw10 = (1 << 20) / d->lba,	/* SLBA at 1 MiB */
		.cdw12 = (IO_SIZE / d->lba - 1) | DTYPE_DATA_PLACEMENT << 20,
		.cdw13 = (uint32_t)d->pid[h] << 16,
	};

	ok = !take_snap(d, &a) && !ioctl(d->fd, NVME_IOCTL_IO_CMD, &c);
	bytes_written += IO_SIZE;
	ok = ok && !take_snap(d, &b) &&
	     landed(d, &a, &b, h, IO_SIZE / d->lba, IO_SIZE);
	ksft_test_result(ok,
			 "fdp.device: passthrough write with DTYPE 2 (CDW12 23:20) and DSPEC = PID %#x (CDW13 31:16) lands on placement handle %u\n",
			 d->pid[h], h);
	free(data);
}

/* Part 2: the host detects FDP and offers the handles as streams. */
static void host_detects(struct fdp_dev *d, char *map, size_t len)
{
	char path[256];
	long n, gran;

	n = read_queue_long(d->disk, "max_write_streams");
	ksft_test_result(n == d->nr && n == NR_RUH,
			 "fdp.host: max_write_streams %ld = placement handles the device reports (%u)\n",
			 n, d->nr);
	gran = read_queue_long(d->disk, "write_stream_granularity");
	ksft_test_result(gran == (long)FDP_RUNS,
			 "fdp.host: write_stream_granularity %ld = RUNS\n", gran);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/block/%s/write_stream_map", d->disk);
	if (read_file(path, map, len))
		map[0] = '\0';
	ksft_test_result(!strcmp(map, map8),
			 "fdp.host: write_stream_map is the documented one for 8 streams\n");
	if (strcmp(map, map8))
		ksft_print_msg("write_stream_map:\n%s", map);
}

/*
 * Part 3: io_uring sqe->write_stream = s lands on placement handle s - 1,
 * also against a class and a lifetime hint that point elsewhere; s > max
 * is EINVAL and reaches nothing.
 */
static void explicit_streams(struct fdp_dev *d)
{
	uint64_t hint = RWH_WRITE_LIFE_EXTREME, none = RWH_WRITE_LIFE_NOT_SET;
	void *buf = io_buf('s');
	struct snap a, b;
	unsigned int s;
	bool ok;
	int ret;

	posix_fadvise(d->fd, 0, 0, POSIX_FADV_IOCLASS_TRANSACTION);
	fcntl(d->fd, F_SET_RW_HINT, &hint);
	for (s = 1; s <= NR_RUH; s++) {
		ok = !take_snap(d, &a);
		ret = uring_write(d->fd, buf, IO_SIZE, (off_t)(2 + s) << 20, s);
		if (ret == IO_SIZE)
			bytes_written += IO_SIZE;
		ok = ok && ret == IO_SIZE && !take_snap(d, &b) &&
		     landed(d, &a, &b, s - 1, IO_SIZE / d->lba, IO_SIZE);
		ksft_test_result(ok,
				 "fdp.explicit: io_uring write_stream=%u lands on placement handle %u only (res %d)\n",
				 s, s - 1, ret);
	}
	ok = !take_snap(d, &a);
	ret = uring_write(d->fd, buf, IO_SIZE, 0, NR_RUH + 1);
	if (ret == IO_SIZE)
		bytes_written += IO_SIZE;
	ok = ok && ret == -EINVAL && !take_snap(d, &b) &&
	     landed(d, &a, &b, -1, 0, 0);
	ksft_test_result(ok,
			 "fdp.explicit: io_uring write_stream=%u is EINVAL and reaches no handle (res %d)\n",
			 NR_RUH + 1, ret);
	posix_fadvise(d->fd, 0, 0, POSIX_FADV_IOCLASS_DATA);
	fcntl(d->fd, F_SET_RW_HINT, &none);
	free(buf);
}

/*
 * Part 4: writes without a stream land on the handle of the stream the
 * write_stream_map gives their class or hint ("data": one handle of the
 * files range).
 */
static void derived_streams(struct fdp_dev *d, const char *map)
{
	uint64_t none = RWH_WRITE_LIFE_NOT_SET;
	void *buf = io_buf('d');
	unsigned int i;

	for (i = 0; i < NR_DERIVED; i++) {
		int s, first, last = 0, h, ret;
		struct snap a, b;
		bool ok = true;

		s = map_stream(map, derived[i].what, &last);
		if (s == 0 || !strcmp(derived[i].what, "files"))
			s = map_stream(map, "files", &last);
		first = s;
		if (s < 1 || last < first) {
			ksft_test_result_fail("fdp.derived: %s: no stream in write_stream_map\n",
					      derived[i].name);
			continue;
		}
		if (derived[i].advice &&
		    posix_fadvise(d->fd, 0, 0, derived[i].advice))
			ok = false;
		if (derived[i].hint &&
		    fcntl(d->fd, F_SET_RW_HINT, &derived[i].hint))
			ok = false;
		if (derived[i].ioprio_class && set_ioprio(derived[i].ioprio_class))
			ok = false;
		ok = ok && !take_snap(d, &a);
		ret = write_blocks(d->fd, buf, (off_t)(16 + i) << 20);
		if (!ret)
			bytes_written += IO_SIZE * NR_WRITES;
		set_ioprio(0);
		posix_fadvise(d->fd, 0, 0, POSIX_FADV_IOCLASS_DATA);
		fcntl(d->fd, F_SET_RW_HINT, &none);
		ok = ok && !ret && !take_snap(d, &b);
		h = ok ? the_handle(d, &a, &b) : -1;
		if (first != last && h + 1 >= first && h + 1 <= last)
			s = h + 1;	/* the files range: any one of it */
		ok = ok && landed(d, &a, &b, s - 1,
				  (uint64_t)NR_WRITES * IO_SIZE / d->lba,
				  (uint64_t)NR_WRITES * IO_SIZE);
		if (first == last)
			ksft_test_result(ok,
					 "fdp.derived: %s: write_stream_map says stream %d, all on placement handle %d\n",
					 derived[i].name, s, s - 1);
		else
			ksft_test_result(ok,
					 "fdp.derived: %s: write_stream_map says streams %d-%d, all on placement handle %d\n",
					 derived[i].name, first, last, h);
	}
	free(buf);
}

#define TRACING	"/sys/kernel/tracing"

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Part 6: swap-out is the paging class. A child in a cgroup with 16 MiB
 * touches SWAP_TOUCHED and reads it back; what it swaps out must land on
 * the handle of write_stream_map's paging stream, and nothing elsewhere.
 */
#define SWAP_CG		"/sys/fs/cgroup/qemu-fdp-swap"
#define SWAP_TOUCHED	(48 << 20)
#define SWAP_OUT_MIN	(16 << 20)

static int swap_out(void)
{
	char pid[32], *mem;
	int status;
	pid_t child;
	size_t i;

	write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory");
	mkdir(SWAP_CG, 0755);
	if (write_str(SWAP_CG "/memory.max", "16M"))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (write_str(SWAP_CG "/cgroup.procs", pid))
			_exit(2);
		mem = mmap(NULL, SWAP_TOUCHED, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			_exit(3);
		for (i = 0; i < SWAP_TOUCHED; i += 4096)
			mem[i] = (char)(i >> 12) | 1;
		asm volatile("" : : "r" (mem) : "memory");
		for (i = 0; i < SWAP_TOUCHED; i += 4096)
			if (mem[i] != ((char)(i >> 12) | 1))
				_exit(4);
		_exit(0);
	}
	if (waitpid(child, &status, 0) != child)
		return -1;
	rmdir(SWAP_CG);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void paging(struct fdp_dev *d, const char *map)
{
	char cmd[128], dev[64];
	int s = map_stream(map, "paging", NULL), ret = -1, h = -1, last = 0;
	struct snap a, b;
	uint64_t lbas = 0;
	bool ok;

	snprintf(dev, sizeof(dev), "/dev/%s", d->disk);
	snprintf(cmd, sizeof(cmd), "mkswap %s >/dev/null 2>&1", dev);
	ok = s >= 0 && !take_snap(d, &a) && !system(cmd) && !swapon(dev, 0);
	if (ok) {
		unsigned int i;

		/* What mkswap wrote (plain data, through the page cache). */
		sync();
		ok = !take_snap(d, &b);
		for (i = 0; ok && i < d->nr; i++)
			bytes_written += (a.ruamw[i] - b.ruamw[i]) * d->lba;
		ok = ok && !take_snap(d, &a);
		ret = swap_out();
		swapoff(dev);
		ok = ok && !ret && !take_snap(d, &b);
	}
	if (ok) {
		h = the_handle(d, &a, &b);
		lbas = h >= 0 ? a.ruamw[h] - b.ruamw[h] : 0;
		/* Placed like data: one stream of the files range. */
		if (s == 0 && map_stream(map, "files", &last) <= h + 1 &&
		    h + 1 <= last)
			s = h + 1;
		bytes_written += lbas * d->lba;
		ok = h == s - 1 && lbas * d->lba >= SWAP_OUT_MIN &&
		     landed(d, &a, &b, s - 1, lbas, lbas * d->lba);
	}
	ksft_test_result(ok,
			 "fdp.derived: swap-out (paging class): write_stream_map says stream %d, %" PRIu64 " KiB all on placement handle %d (child %d)\n",
			 s, lbas * d->lba >> 10, h, ret);
}

/*
 * Part 7: the endurance group counted exactly what this test wrote, and
 * QEMU moved no reclaim unit early (MBMW = HBMW).
 */
static void group_totals(struct fdp_dev *d, const struct snap *start)
{
	struct snap end;
	bool ok = !take_snap(d, &end);

	ksft_test_result(ok && end.hbmw - start->hbmw == bytes_written,
			 "fdp.device: FDP statistics: host bytes written %" PRIu64 " = what the test wrote (%" PRIu64 ")\n",
			 end.hbmw - start->hbmw, bytes_written);
	ksft_test_result(ok && end.mbmw - start->mbmw == end.hbmw - start->hbmw,
			 "fdp.device: FDP statistics: media bytes written %" PRIu64 " = host bytes written\n",
			 end.mbmw - start->mbmw);
}

/*
 * Part 5: the transaction class's stream 1 is placement handle 0, which is
 * also where QEMU puts writes without a directive, so RUAMW cannot tell
 * them apart: the commands the driver sent (nvme_setup_cmd trace) must
 * carry DTYPE 2 and the PID of handle 0, and a passthrough write without
 * a directive shows where QEMU puts one.
 */
static void handle_zero(struct fdp_dev *d)
{
	void *buf = io_buf('t');
	char *trace, *line, want[64];
	unsigned int writes = 0, placed = 0;
	struct snap a, b;
	bool ok;
	int ret;
	struct nvme_passthru_cmd c = {
		.opcode = NVME_CMD_WRITE, .nsid = d->nsid,
		.addr = (uintptr_t)buf, .data_len = IO_SIZE,
		.cdw10 = (2 << 20) / d->lba,
		.cdw12 = IO_SIZE / d->lba - 1,	/* no DTYPE, no DSPEC */
	};

	ok = !take_snap(d, &a) && !ioctl(d->fd, NVME_IOCTL_IO_CMD, &c);
	bytes_written += IO_SIZE;
	ok = ok && !take_snap(d, &b) &&
	     landed(d, &a, &b, 0, IO_SIZE / d->lba, IO_SIZE);
	ksft_test_result(ok,
			 "fdp.device: passthrough write without a directive lands on placement handle 0 (QEMU's default)\n");

	/* The trace of the transaction class's writes. */
	ok = !write_str(TRACING "/events/nvme/nvme_setup_cmd/enable", "1") &&
	     !write_str(TRACING "/trace", "");
	ok = ok && !posix_fadvise(d->fd, 0, 0, POSIX_FADV_IOCLASS_TRANSACTION);
	ret = write_blocks(d->fd, buf, 40 << 20);
	if (!ret)
		bytes_written += IO_SIZE * NR_WRITES;
	posix_fadvise(d->fd, 0, 0, POSIX_FADV_IOCLASS_DATA);
	write_str(TRACING "/events/nvme/nvme_setup_cmd/enable", "0");
	trace = calloc(1, 1 << 20);
	if (!trace || read_file(TRACING "/trace", trace, 1 << 20))
		ok = false;
	/*
	 * "ctrl=0x.., dsmgmt=N": DTYPE in control 7:4 (CDW12 23:20), DSPEC
	 * in dsmgmt 31:16 (CDW13); the DSM hints of the class in 7:0.
	 */
	snprintf(want, sizeof(want), "disk=%s,", d->disk);
	for (line = trace ? strtok(trace, "\n") : NULL; line;
	     line = strtok(NULL, "\n")) {
		unsigned int ctrl, dsmgmt;
		char *p = strstr(line, "ctrl=0x");

		if (!strstr(line, "nvme_cmd_write") || !strstr(line, want) ||
		    !p || sscanf(p, "ctrl=0x%x, dsmgmt=%u", &ctrl, &dsmgmt) != 2)
			continue;
		writes++;
		if ((ctrl >> 4 & 0xf) == DTYPE_DATA_PLACEMENT &&
		    dsmgmt >> 16 == d->pid[0])
			placed++;
		else
			ksft_print_msg("trace: %s\n", line);
	}
	ksft_test_result(ok && !ret && writes >= NR_WRITES && placed == writes,
			 "fdp.host: transaction class: %u of %u writes sent with DTYPE 2 and DSPEC = PID %#x of handle 0 (nvme_setup_cmd)\n",
			 placed, writes, d->pid[0]);
	free(trace);
	free(buf);
}

/*
 * Part 9: files on a file system. NR_FILES files on xfs on the FDP
 * namespace, written at once, land on at least min(3, width) of the
 * placement handles of the files range, each file's writes all on one
 * handle, the same one after umount and mount. The files range is the
 * documented one for 8 streams (map8: streams 5-8), stream s on the
 * placement handle s - 1 of RUH Status (as part 3 checks). xfs, because
 * all it writes besides file data carries REQ_META (metadata class) or
 * is its log (transaction class), so the handles of the files range take
 * file data and nothing else; ext4 writes its checkpointed metadata back
 * through the block device's own inode, a file like any other.
 *
 * The evidence is the device's: RUAMW per placement handle, in logical
 * blocks. NVMe Base 2.1, 7.3 (I/O Management Receive, Reclaim Unit Handle
 * Status descriptor): RUAMW is the number of logical blocks that may
 * still be written to the reclaim unit the handle references, so a write
 * of n blocks through the handle lowers it by n. 8.1.10 (Flexible Data
 * Placement): a fully written reclaim unit is replaced by an empty one on
 * the same handle, whose RUAMW starts at the reclaim unit size (RUNS of
 * the FDP Configurations log page, in bytes). The FDP Statistics log
 * page's Host Bytes with Metadata Written counts every byte the
 * endurance group took, so the drops of all handles add up to it.
 *
 * The device counts per handle, not per file. A file's handle is read by
 * overwriting it alone (pwrite, fsync; everything else synced before):
 * exactly its blocks must show up on one handle of the files range and
 * nothing on the others. Written at once (one process per file, released
 * together, each writing and fsyncing its own file), each handle of the
 * files range must have taken exactly the blocks of the files that land
 * on it alone; the files have distinct sizes, so a file whose blocks went
 * elsewhere shows unless other misplaced blocks balance it exactly. 16
 * files hashed evenly into a range of 4 miss a third handle with a chance
 * of about 1e-4 (6 * (2^16 - 2) / 4^16 + 4 / 4^16).
 */
#define FILES_MNT	"/tmp/qemu-fdp-files"
#define NR_FILES	16
#define FILE_UNIT	(64 << 10)	/* file i: (i + 1) units */
#define FILE_SIZE(i)	((size_t)((i) + 1) * FILE_UNIT)
#define FILE_CHUNK	(16 << 10)	/* per pwrite */

struct files_state {
	struct fdp_dev *d;
	int first, last;	/* the files range, placement handles */
	int mnt_fd;		/* the mount's root, for syncfs */
	bool consistent;	/* every window: handles' drops = HBMW */
	unsigned int windows;
};

/*
 * Logical blocks placement handle @h took between @a and @b: the drop of
 * its RUAMW, or, if it rose, the rest of the old reclaim unit plus what
 * the new one took (8.1.10, above). A window writes less than a reclaim
 * unit through any handle, so at most one replacement.
 */
static uint64_t handle_took(const struct fdp_dev *d, const struct snap *a,
			    const struct snap *b, unsigned int h)
{
	if (b->ruamw[h] <= a->ruamw[h])
		return a->ruamw[h] - b->ruamw[h];
	return a->ruamw[h] + d->runs / d->lba - b->ruamw[h];
}

/* Everything on the device, then the first snapshot of a window. */
static int window_start(struct files_state *fs, struct snap *a)
{
	sync();
	if (syncfs(fs->mnt_fd)) {
		ksft_print_msg("syncfs: %s\n", strerror(errno));
		return -1;
	}
	if (take_snap(fs->d, a)) {
		ksft_print_msg("RUH Status or FDP statistics failed\n");
		return -1;
	}
	return 0;
}

/*
 * The second snapshot: @took[h] = the blocks handle h took. Records
 * whether they add up to the FDP statistics' host bytes written.
 */
static int window_end(struct files_state *fs, const struct snap *a,
		      uint64_t *took)
{
	const struct fdp_dev *d = fs->d;
	uint64_t sum = 0;
	struct snap b;
	unsigned int h;

	if (syncfs(fs->mnt_fd)) {
		ksft_print_msg("syncfs: %s\n", strerror(errno));
		return -1;
	}
	if (take_snap(fs->d, &b)) {
		ksft_print_msg("RUH Status or FDP statistics failed\n");
		return -1;
	}
	for (h = 0; h < d->nr; h++) {
		took[h] = handle_took(d, a, &b, h);
		sum += took[h];
	}
	fs->windows++;
	if (sum * d->lba != b.hbmw - a->hbmw) {
		ksft_print_msg("window %u: handles took %" PRIu64
			       " blocks, FDP statistics %" PRIu64 " bytes\n",
			       fs->windows, sum, b.hbmw - a->hbmw);
		fs->consistent = false;
	}
	return 0;
}

/* Write @len bytes of @fill to @path (created if @create), fsync, close. */
static int write_whole_file(const char *path, size_t len, char fill,
			    bool create)
{
	static char buf[FILE_CHUNK];
	size_t off;
	ssize_t n;
	int fd;

	memset(buf, fill, sizeof(buf));
	fd = open(path, O_WRONLY | (create ? O_CREAT | O_TRUNC : 0), 0644);
	if (fd < 0) {
		ksft_print_msg("open %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (off = 0; off < len; off += n) {
		n = pwrite(fd, buf, sizeof(buf), off);
		if (n != (ssize_t)sizeof(buf)) {
			ksft_print_msg("pwrite %s at %zu: %zd (%s)\n", path,
				       off, n, n < 0 ? strerror(errno) : "short");
			close(fd);
			return -1;
		}
	}
	if (fsync(fd)) {
		ksft_print_msg("fsync %s: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd)) {
		ksft_print_msg("close %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void file_path(char *path, size_t len, int i)
{
	snprintf(path, len, FILES_MNT "/f%02d", i);
}

/*
 * All NR_FILES files written at once: one child per file, all released
 * by closing a pipe, each writing and fsyncing its own file. @took: what
 * each handle took meanwhile.
 */
static int files_at_once(struct files_state *fs, bool create, char fill,
			 uint64_t *took)
{
	pid_t pids[NR_FILES];
	int go[2], i, status, ret = 0;
	struct snap a;
	char path[64], c;

	if (window_start(fs, &a))
		return -1;
	if (pipe(go)) {
		ksft_print_msg("pipe: %s\n", strerror(errno));
		return -1;
	}
	for (i = 0; i < NR_FILES; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			ksft_print_msg("fork: %s\n", strerror(errno));
			ret = -1;
			break;
		}
		if (!pids[i]) {
			close(go[1]);
			if (read(go[0], &c, 1) != 0)
				_exit(2);
			file_path(path, sizeof(path), i);
			_exit(write_whole_file(path, FILE_SIZE(i), fill,
					       create) ? 1 : 0);
		}
	}
	close(go[0]);
	close(go[1]);		/* go */
	while (--i >= 0) {
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			ksft_print_msg("writer of file %d failed (status %#x)\n",
				       i, status);
			ret = -1;
		}
	}
	if (ret)
		return ret;
	return window_end(fs, &a, took);
}

/*
 * File @i overwritten alone: the placement handle of the files range that
 * took exactly its blocks while no other handle of the range took any,
 * or -1 (and says what the device saw); -2 if a call failed.
 */
static int file_alone(struct files_state *fs, int i, char fill)
{
	const struct fdp_dev *d = fs->d;
	uint64_t took[MAX_PIDS], want = FILE_SIZE(i) / d->lba;
	char path[64];
	struct snap a;
	int h, found = -1;

	file_path(path, sizeof(path), i);
	if (window_start(fs, &a) ||
	    write_whole_file(path, FILE_SIZE(i), fill, false) ||
	    window_end(fs, &a, took))
		return -2;
	for (h = fs->first; h <= fs->last; h++) {
		if (!took[h])
			continue;
		if (took[h] == want && found < 0) {
			found = h;
			continue;
		}
		found = -1;
		break;
	}
	if (found < 0) {
		ksft_print_msg("%s alone (%" PRIu64 " blocks):", path, want);
		for (h = 0; h < (int)d->nr; h++)
			printf(" handle %d took %" PRIu64 "%s", h, took[h],
			       h == (int)d->nr - 1 ? "\n" : ",");
	}
	return found;
}

/*
 * Written at once (@took), each handle of the files range took exactly
 * the blocks of the files that @handle puts on it alone.
 */
static bool at_once_matches(const struct files_state *fs,
			    const uint64_t *took, const int *handle)
{
	const struct fdp_dev *d = fs->d;
	bool ok = true;
	int h, i;

	for (h = fs->first; h <= fs->last; h++) {
		uint64_t want = 0;

		for (i = 0; i < NR_FILES; i++)
			if (handle[i] == h)
				want += FILE_SIZE(i) / d->lba;
		ksft_print_msg("at once: handle %d took %" PRIu64
			       " blocks, its files alone %" PRIu64 "\n",
			       h, took[h], want);
		if (took[h] != want)
			ok = false;
	}
	return ok;
}

/* Every file alone: @handle[i]; whether each took one handle of the range. */
static bool all_alone(struct files_state *fs, char fill, int *handle)
{
	bool ok = true;
	int i;

	for (i = 0; i < NR_FILES; i++) {
		handle[i] = file_alone(fs, i, fill);
		if (handle[i] < 0)
			ok = false;
	}
	return ok;
}

static int mount_files(const char *dev)
{
	if (syscall(SYS_mount, dev, FILES_MNT, "xfs", 0UL, NULL)) {
		ksft_print_msg("mount %s on " FILES_MNT ": %s\n", dev,
			       strerror(errno));
		return -1;
	}
	return 0;
}

static int umount_files(struct files_state *fs)
{
	if (fs->mnt_fd >= 0 && close(fs->mnt_fd))
		ksft_print_msg("close " FILES_MNT ": %s\n", strerror(errno));
	fs->mnt_fd = -1;
	if (syscall(SYS_umount2, FILES_MNT, 0)) {
		ksft_print_msg("umount " FILES_MNT ": %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int open_mnt(struct files_state *fs)
{
	fs->mnt_fd = open(FILES_MNT, O_RDONLY | O_DIRECTORY);
	if (fs->mnt_fd < 0) {
		ksft_print_msg("open " FILES_MNT ": %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static void files_on_xfs(struct fdp_dev *d)
{
	struct files_state fs = { .d = d, .mnt_fd = -1, .consistent = true };
	int before[NR_FILES], after[NR_FILES], i, want, distinct = 0;
	uint64_t took[MAX_PIDS], took2[MAX_PIDS];
	bool seen[MAX_PIDS] = { false };
	bool set_up, alone_ok = false, after_ok, same = false, mounted = false;
	char cmd[128], dev[64];
	int first, last = 0, status;

	/*
	 * The files range of the documented layout for the NR_RUH handles
	 * the device reports (not the host's debugfs map, which may be
	 * wrong): streams first..last, stream s on placement handle s - 1.
	 */
	first = map_stream(map8, "files", &last);
	fs.first = first - 1;
	fs.last = last - 1;
	if (d->nr != NR_RUH || first < 1 || last < first ||
	    last > (int)d->nr) {
		fs.first = 0;
		fs.last = -1;
	}
	want = fs.last - fs.first + 1 < 3 ? fs.last - fs.first + 1 : 3;

	snprintf(dev, sizeof(dev), "/dev/%s", d->disk);
	snprintf(cmd, sizeof(cmd), "mkfs.xfs -f -q -K %s >/dev/null 2>&1", dev);
	status = system(cmd);
	set_up = fs.last >= fs.first && d->runs >= d->lba;
	if (status) {
		ksft_print_msg("%s: status %#x\n", cmd, status);
		set_up = false;
	}
	if (mkdir(FILES_MNT, 0755) && errno != EEXIST) {
		ksft_print_msg("mkdir " FILES_MNT ": %s\n", strerror(errno));
		set_up = false;
	}
	if (set_up && !mount_files(dev)) {
		mounted = true;
		set_up = !open_mnt(&fs);
	} else {
		set_up = false;
	}
	set_up = set_up && !files_at_once(&fs, true, 'a', took);
	ksft_test_result(set_up,
			 "fdp.files: mkfs.xfs, mount and %d files written at once (fork, pwrite, fsync) on the FDP namespace succeed\n",
			 NR_FILES);

	/* Each alone: one handle of the files range each. */
	if (set_up)
		alone_ok = all_alone(&fs, 'b', before);
	for (i = 0; alone_ok && i < NR_FILES; i++) {
		ksft_print_msg("f%02d (%zu KiB) alone: placement handle %d\n",
			       i, FILE_SIZE(i) >> 10, before[i]);
		if (!seen[before[i]])
			distinct++;
		seen[before[i]] = true;
	}
	ksft_test_result(alone_ok,
			 "fdp.files: each of %d files overwritten alone lands whole on one placement handle of the files range (handles %d-%d)\n",
			 NR_FILES, fs.first, fs.last);
	ksft_test_result(alone_ok && distinct >= want,
			 "fdp.files: %d files on at least %d of the %d placement handles of the files range: on %d\n",
			 NR_FILES, want, fs.last - fs.first + 1, distinct);
	ksft_test_result(alone_ok && at_once_matches(&fs, took, before),
			 "fdp.files: written at once, each placement handle of the files range took exactly the blocks of the files that land on it alone\n");

	/* Umount, mount: the same handle per file. */
	if (mounted && !umount_files(&fs)) {
		mounted = false;
		if (set_up && !mount_files(dev)) {
			mounted = true;
			set_up = !open_mnt(&fs);
		} else {
			set_up = false;
		}
	} else {
		set_up = false;
	}
	after_ok = set_up && all_alone(&fs, 'c', after);
	if (after_ok) {
		same = alone_ok;
		for (i = 0; i < NR_FILES; i++) {
			if (after[i] == before[i])
				continue;
			ksft_print_msg("f%02d moved from placement handle %d to %d\n",
				       i, before[i], after[i]);
			same = false;
		}
	}
	ksft_test_result(same,
			 "fdp.files: after umount and mount, each file overwritten alone lands whole on the same placement handle\n");
	ksft_test_result(after_ok && !files_at_once(&fs, false, 'd', took2) &&
			 at_once_matches(&fs, took2, after),
			 "fdp.files: after umount and mount, %d files overwritten at once: each placement handle of the files range took exactly the blocks of its files\n",
			 NR_FILES);
	ksft_test_result(fs.windows && fs.consistent,
			 "fdp.files: in every window the placement handles' RUAMW drops add up to the FDP statistics' host bytes written (%u windows)\n",
			 fs.windows);
	ksft_test_result(mounted && !umount_files(&fs),
			 "fdp.files: umount\n");
}

/* Part 8: QEMU's NVMe without FDP is the device without directives. */
static void plain_device(void)
{
	uint64_t hint = RWH_WRITE_LIFE_SHORT, none = RWH_WRITE_LIFE_NOT_SET;
	char disk[32], path[300], map[256];
	uint8_t id[4096];
	void *buf, *back;
	int fd, ret;
	long n;

	if (find_disk(PLAIN_SERIAL, disk, sizeof(disk))) {
		ksft_test_result_fail("plain: no NVMe disk with serial %s\n",
				      PLAIN_SERIAL);
		ksft_test_result_fail("plain: max_write_streams\n");
		ksft_test_result_fail("plain: write_stream_map\n");
		ksft_test_result_fail("plain: io_uring write_stream=1\n");
		ksft_test_result_fail("plain: writes read back\n");
		return;
	}
	snprintf(path, sizeof(path), "/dev/%s", disk);
	fd = open(path, O_RDWR | O_DIRECT);
	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", path, strerror(errno));

	ret = identify(fd, 0, 1, id);
	ksft_test_result(!ret && !(get32(id + 96) & CTRATT_FDPS),
			 "plain.device: Identify Controller CTRATT.FDPS is clear (CTRATT %#x)\n",
			 ret ? 0 : get32(id + 96));
	n = read_queue_long(disk, "max_write_streams");
	ksft_test_result(n == 0, "plain.host: max_write_streams %ld\n", n);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/block/%s/write_stream_map", disk);
	ksft_test_result(!read_file(path, map, sizeof(map)) &&
			 !strcmp(map, "none\n"),
			 "plain.host: write_stream_map is \"none\"\n");

	buf = io_buf('n');
	back = io_buf(0);
	ret = uring_write(fd, buf, IO_SIZE, 0, 1);
	ksft_test_result(ret == -EINVAL,
			 "plain.host: io_uring write_stream=1 is EINVAL (res %d)\n",
			 ret);

	/* With a class and a hint that would pick streams elsewhere. */
	ret = posix_fadvise(fd, 0, 0, POSIX_FADV_IOCLASS_TRANSACTION) ||
	      fcntl(fd, F_SET_RW_HINT, &hint) ||
	      write_blocks(fd, buf, 1 << 20) ||
	      uring_write(fd, buf, IO_SIZE, 0, 0) != IO_SIZE ||
	      pread(fd, back, IO_SIZE * NR_WRITES, 1 << 20) !=
	      IO_SIZE * NR_WRITES ||
	      memcmp(buf, back, IO_SIZE * NR_WRITES);
	posix_fadvise(fd, 0, 0, POSIX_FADV_IOCLASS_DATA);
	fcntl(fd, F_SET_RW_HINT, &none);
	ksft_test_result(!ret,
			 "plain.host: writes with a class and a lifetime hint succeed and read back intact\n");
	free(buf);
	free(back);
	close(fd);
}

/* The kernel log of the whole run has no WARNING, BUG or Oops. */
static void kernel_log(void)
{
	int len = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *log = len > 0 ? calloc(1, len + 1) : NULL;
	bool ok = log && klogctl(3, log, len) >= 0;	/* READ_ALL */
	char *line;

	for (line = ok ? strtok(log, "\n") : NULL; line;
	     line = strtok(NULL, "\n")) {
		if (strstr(line, "WARNING:") || strstr(line, "BUG:") ||
		    strstr(line, "Oops")) {
			ksft_print_msg("kernel: %s\n", line);
			ok = false;
		}
		if (strstr(line, "FDP"))
			ksft_print_msg("kernel: %s\n", line);
	}
	ksft_test_result(ok, "kernel: no WARNING, BUG or Oops in the log\n");
	free(log);
}

int main(void)
{
	struct fdp_dev d = { .fd = -1 };
	char path[300], map[512];
	struct utsname uts;
	struct snap start;
	long lba;
	int ret;

	ksft_print_header();
	ksft_set_plan(PLAN);
	if (!uname(&uts))
		ksft_print_msg("kernel %s %s\n", uts.release, uts.version);

	if (find_disk(FDP_SERIAL, d.disk, sizeof(d.disk)))
		ksft_exit_fail_msg("no NVMe disk with serial %s: is this QEMU >= 9.0.2 with an FDP subsystem?\n",
				   FDP_SERIAL);
	lba = read_queue_long(d.disk, "logical_block_size");
	if (lba <= 0 || IO_SIZE % lba)
		ksft_exit_fail_msg("%s: logical block size %ld\n", d.disk, lba);
	d.lba = lba;
	snprintf(path, sizeof(path), "/dev/%s", d.disk);
	d.fd = open(path, O_RDWR | O_DIRECT);
	if (d.fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", path, strerror(errno));
	ret = ioctl(d.fd, NVME_IOCTL_ID);
	if (ret <= 0)
		ksft_exit_fail_msg("%s: no namespace ID\n", path);
	d.nsid = ret;
	ksft_print_msg("FDP namespace %s (nsid %u, %u-byte blocks)\n",
		       d.disk, d.nsid, d.lba);

	device_reports(&d);
	if (d.nr == 0 || take_snap(&d, &start))
		ksft_exit_fail_msg("no usable Reclaim Unit Handle Status\n");
	device_places(&d);
	host_detects(&d, map, sizeof(map));
	explicit_streams(&d);
	derived_streams(&d, map);
	handle_zero(&d);
	paging(&d, map);
	group_totals(&d, &start);
	files_on_xfs(&d);
	close(d.fd);
	plain_device();
	kernel_log();
	ksft_finished();
}
