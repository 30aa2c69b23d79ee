// SPDX-License-Identifier: GPL-2.0
/*
 * ftl-sim: a page-mapped flash translation layer simulator.
 *
 * The patch series attaches hint classes, lifetime hints and stream IDs to
 * writes so that a device can place data that dies together in the same
 * erase block. Whether that pays off is a question of write amplification
 * (media writes / host writes), which a real device does not report and a
 * VM cannot show. This program answers it offline: it replays a trace of
 * writes and discards (or a synthetic workload) through a simple FTL with
 * one open erase block per stream, runs garbage collection when free
 * blocks run low, and reports the write amplification of each placement
 * policy, from "no streams at all" up to an oracle that knows when every
 * page will die.
 *
 * The model is deliberately small: pages of 4 KiB, blocks of N pages, a
 * flat logical-to-physical map, a reverse map, per-block valid counts and
 * a bucket list of full blocks by valid count so that greedy victim
 * selection is O(block size) and a page invalidation is O(1). There are no
 * timing, parallelism, wear-levelling or read effects: only placement.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECTORS_PER_PAGE	8	/* 4 KiB pages of 512-byte sectors */
#define NO_PAGE			UINT32_MAX
#define NO_BLOCK		UINT32_MAX
#define MAX_STREAMS		64

/*
 * GC runs when a host stream needs a new block and fewer than this many
 * blocks are free. Two is the smallest safe value: one victim's valid pages
 * (fewer than a block) fit in the rest of the GC block plus at most one new
 * block, so with one block in hand a collection always completes, and the
 * host has just taken the other. A larger reserve would only hide
 * over-provisioning from the model.
 */
#define GC_RESERVE		2

#define EXIT_USAGE		2	/* bad option or malformed trace */

/* ---------------------------------------------------------------------- */
/* Small helpers                                                          */

static const char *prog = "ftl-sim";

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		die(1, "out of memory (%zu x %zu bytes)", n, size);
	return p;
}

static void *xrealloc(void *old, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		die(1, "out of memory");
	p = realloc(old, n * size);
	if (!p)
		die(1, "out of memory (%zu x %zu bytes)", n, size);
	return p;
}

static void fill_u32(uint32_t *a, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		a[i] = v;
}

/* splitmix64: tiny, fast, and good enough for workload generation. */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform integer in [0, n) by multiply-shift (n < 2^32). */
static uint32_t rng_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((rng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/* ---------------------------------------------------------------------- */
/* Records: what the trace or a synthetic workload asks the device to do  */

enum rec_op { REC_WRITE, REC_DISCARD };

enum io_class {
	CLASS_DATA, CLASS_TRANSACTION, CLASS_METADATA, CLASS_PAGING,
	CLASS_REALTIME, CLASS_BACKGROUND, NR_CLASSES
};

static const char *const class_names[NR_CLASSES] = {
	[CLASS_DATA]		= "data",
	[CLASS_TRANSACTION]	= "transaction",
	[CLASS_METADATA]	= "metadata",
	[CLASS_PAGING]		= "paging",
	[CLASS_REALTIME]	= "realtime",
	[CLASS_BACKGROUND]	= "background",
};

#define MAX_HINT	5	/* WRITE_LIFE_EXTREME */
#define HINT_SHORT	2	/* WRITE_LIFE_SHORT, first real lifetime */

/*
 * One request, already converted to whole 4 KiB pages: 20 bytes, so
 * traces of tens of millions of requests fit.
 */
struct record {
	uint32_t page;		/* first logical page */
	uint32_t npages;	/* may be 0 for a discard of a partial page */
	uint32_t file;		/* file stream ID (low 32 bits), 0 = none */
	uint8_t op;		/* enum rec_op */
	uint8_t class;		/* enum io_class */
	uint8_t hint;		/* write lifetime hint 0..5 */
	uint8_t pad;
	uint16_t stream;	/* device stream the kernel chose, 0 = none */
};

/* ---------------------------------------------------------------------- */
/* Configuration                                                          */

enum gc_policy { GC_GREEDY, GC_COST_BENEFIT };

/*
 * Where GC writes the pages it moves. Shared: one open GC block for all
 * streams, so collection remixes what the host kept apart (FDP's initially
 * isolated reclaim unit handles). Per-stream: one open GC block per stream,
 * and a moved page goes to the GC block of the stream the host last wrote
 * it on (FDP's persistently isolated handles).
 */
enum gc_dest { GC_DEST_SHARED, GC_DEST_PER_STREAM };

enum placement {
	PL_SINGLE, PL_KERNEL, PL_LIFETIME, PL_ORACLE, PL_AUTOSTREAM, PL_MAP,
	PL_FSTREAM, NR_PLACEMENTS
};
enum synthetic { SYN_NONE, SYN_UNIFORM, SYN_HOTCOLD };

static const char *const gc_names[] = {
	[GC_GREEDY] = "greedy", [GC_COST_BENEFIT] = "cost-benefit",
};

static const char *const gc_dest_names[] = {
	[GC_DEST_SHARED] = "shared", [GC_DEST_PER_STREAM] = "per-stream",
};

static const char *const placement_names[] = {
	[PL_SINGLE] = "single", [PL_KERNEL] = "kernel",
	[PL_LIFETIME] = "lifetime", [PL_ORACLE] = "oracle",
	[PL_AUTOSTREAM] = "autostream", [PL_MAP] = "map",
	[PL_FSTREAM] = "fstream",
};

/*
 * The series' mapping (block/blk-io-hints.c, blk_write_stream_map()) with
 * its choices open, to compare variants on the same trace:
 * dedicated streams for the listed classes in order, at most half of the
 * streams; then, if lifetimes is set, streams for the four lifetime hints
 * (SHORT..EXTREME, one each when more than four streams are left, spread
 * over the rest otherwise); then the file stream IDs folded onto what is
 * left (or, without files, all onto its first stream).
 */
#define NR_LIFETIMES	4
enum map_files {
	FILES_NONE, FILES_HASH, FILES_LRU, FILES_IDLE, FILES_TEMP_INT
};
struct map_spec {
	uint8_t rank[NR_CLASSES];	/* 1-based position in the list, 0: none */
	unsigned int nr_classes;
	bool lifetimes;
	enum map_files files;
	uint64_t file_idle;		/* lru, idle: pages after which a file
					 * is new; temp-int: half-life */
	bool new_blocks;		/* temp-int: writes to new blocks in the
					 * middle of the files range */
	unsigned int file_step_log2;	/* temp-int: log2 of the drop in rate
					 * from one stream to the next */
};

static const char *const map_files_names[] = {
	[FILES_NONE] = "none", [FILES_HASH] = "hash", [FILES_LRU] = "lru",
	[FILES_IDLE] = "idle", [FILES_TEMP_INT] = "temp-int",
};

/*
 * --map-files lru: instead of folding file IDs onto the file streams by
 * their value (hash folding: two of three files share a stream of four
 * more often than not), a file ID that is new, or has not written for
 * file_idle host pages, takes the file stream that has gone longest
 * without a write, and keeps it while it goes on writing. Files written
 * at the same time then get streams of their own as long as there are no
 * more of them than streams. --map-files idle: a stream is only free when
 * nobody wrote it for file_idle host pages; when none is, a new file joins
 * the last new file's stream, so a burst of small new files (mail, say)
 * stays together in time as one stream would keep it, where lru would deal
 * it out over all streams. The state is what a device queue would keep
 * for its 255 file IDs: a stream and a time each, and a time per stream.
 */
#define NR_FILE_IDS	256
struct file_lru {
	uint8_t stream[NR_FILE_IDS];		/* offset in the file pool */
	uint64_t last[NR_FILE_IDS];		/* last write + 1, 0: never */
	uint64_t stream_last[MAX_STREAMS];	/* last write + 1 */
	unsigned int last_new;			/* stream of the last new file */
	/* temp-int */
	uint32_t icount[NR_FILE_IDS];		/* decayed requests * 16 */
	uint64_t itick[NR_FILE_IDS];		/* tick of the last update */
	uint32_t ihottest;
	uint64_t ihottest_tick;
	/* new-blocks: the file that last wrote each page, 0: none since */
	uint32_t *page_file;
};

/*
 * --map-files temp-int: by how often a file writes, not by which file it
 * is. Each ID counts its write requests, decaying with a half-life of
 * file_idle host pages (AutoStream's frequency rule with files for
 * chunks); a write goes to pool stream floor(log4(hottest / count)),
 * clamped to the pool: the most often written files on the first, each
 * fourfold drop in write rate one stream further. The hottest count
 * decays as the counts do, so the scale follows the workload.
 *
 * In the arithmetic of write_stream_files "rate" in version 5 of the
 * series (block/blk-io-hints.c; v6 has no such policy): counts of 16 per write, time in
 * ticks of 1/256 of the half-life, a count halved per whole half-life and
 * decayed by 1 - x/2 for the fraction x left (2^-x within 7 %: 6.1 % at
 * x = 1/2), the hottest count stamped anew only when a count passes it.
 * floor(log2(h / c)) is floor(log2(floor(h / c))) for h >= c, so the level
 * is ilog2(h / c) / 2 exactly. Unlike the kernel it counts the trace's
 * requests, not bios before merging, and its clock is host pages.
 */
#define TEMP_INT_ONE	16
#define TEMP_INT_TICKS	8	/* log2 of the ticks in a half-life */

static uint32_t decay_int(uint32_t c, uint64_t ticks)
{
	uint64_t n = ticks >> TEMP_INT_TICKS;
	uint64_t rem = ticks & ((1 << TEMP_INT_TICKS) - 1);

	if (n >= 32)
		return 0;
	c >>= n;
	return c - (uint32_t)((uint64_t)c * rem >> (TEMP_INT_TICKS + 1));
}

static unsigned int file_temp_int_stream(struct file_lru *l, uint32_t file,
					 unsigned int pool,
					 uint64_t half_life,
					 unsigned int step_log2, uint64_t now)
{
	uint64_t tick = half_life >> TEMP_INT_TICKS;
	unsigned int id = file % NR_FILE_IDS, level;
	uint64_t t = now / (tick ? tick : 1);
	uint32_t c, h;

	c = decay_int(l->icount[id], t - l->itick[id]);
	c = c > UINT32_MAX - TEMP_INT_ONE ? UINT32_MAX : c + TEMP_INT_ONE;
	l->icount[id] = c;
	l->itick[id] = t;
	h = decay_int(l->ihottest, t - l->ihottest_tick);
	if (c > h) {
		h = c;
		l->ihottest = c;
		l->ihottest_tick = t;
	}
	level = (31 - (unsigned int)__builtin_clz(h / c)) / step_log2;
	return level >= pool - 1 ? pool - 1 : level;
}

static const char *const replica_files_names[] = { "shared", "distinct" };

static const char *const synthetic_names[] = {
	[SYN_NONE] = "none", [SYN_UNIFORM] = "uniform",
	[SYN_HOTCOLD] = "hotcold",
};

struct config {
	const char *trace;		/* path, "-" for stdin, or NULL */
	enum synthetic synthetic;
	uint64_t writes;		/* synthetic random writes after fill */
	uint64_t logical_pages;		/* 0: from the trace */
	double op;
	uint32_t block_pages;
	unsigned int streams;
	enum placement policy;
	enum gc_policy gc;
	enum gc_dest gc_dest;
	uint64_t warmup_pages;
	uint64_t seed;
	double hot_space;		/* hotcold: hot fraction of LBAs */
	double hot_writes;		/* hotcold: writes that go there */
	uint32_t as_chunk_kib;		/* autostream chunk size */
	double as_half_life;		/* autostream; 0: default */
	struct map_spec map;		/* map */
	uint32_t replicas;		/* copies of the trace side by side */
	uint64_t replica_head;		/* records every copy replays first */
	bool replica_distinct_files;	/* copies k > 0: IDs of their own */
	uint64_t replica_seed;		/* 0: copy k starts k/K of the way */
};

/* ---------------------------------------------------------------------- */
/* Sources: a replayable sequence of records                              */

/*
 * The oracle needs two passes over the workload, so every source can be
 * rewound: a trace is held in memory (it can come from a pipe), and a
 * synthetic workload is regenerated from its seed.
 */
struct source {
	/* trace */
	struct record *recs;
	size_t nrecs;
	uint32_t replicas;		/* 1: the trace as it is */
	uint32_t copy;			/* copy of the next record */
	uint32_t copy_pages;		/* logical pages of one copy */
	size_t head;			/* records replayed unrotated */
	bool distinct_files;		/* copies k > 0: file IDs of their own */
	uint64_t replica_seed;
	size_t *start;			/* per copy: where its rest begins */
	/* synthetic */
	enum synthetic kind;
	uint64_t seed, rng;
	uint32_t lpages;
	uint64_t writes;
	uint32_t hot_pages;
	uint64_t hot_threshold;		/* rng below this: a hot write */
	uint64_t fill_pos;		/* next page of the initial fill */
	uint64_t done;			/* random writes issued */
	/* both */
	size_t pos;
	uint64_t total_page_writes;
	uint64_t max_page;		/* past the highest page touched */
};

/* Sequential fill requests are 1 MiB, like a typical large buffered write. */
#define FILL_PAGES	256

static void source_rewind(struct source *src)
{
	src->pos = 0;
	src->copy = 0;
	src->fill_pos = 0;
	src->done = 0;
	src->rng = src->seed;
}

static bool synthetic_next(struct source *src, struct record *r)
{
	memset(r, 0, sizeof(*r));
	r->op = REC_WRITE;
	r->class = CLASS_DATA;
	if (src->fill_pos < src->lpages) {
		uint64_t left = src->lpages - src->fill_pos;

		r->page = (uint32_t)src->fill_pos;
		r->npages = left < FILL_PAGES ? (uint32_t)left : FILL_PAGES;
		src->fill_pos += r->npages;
		return true;
	}
	if (src->done >= src->writes)
		return false;
	src->done++;
	r->npages = 1;
	if (src->kind == SYN_UNIFORM) {
		r->page = rng_below(&src->rng, src->lpages);
	} else if (rng_next(&src->rng) < src->hot_threshold) {
		r->page = rng_below(&src->rng, src->hot_pages);
	} else {
		r->page = src->hot_pages +
			  rng_below(&src->rng, src->lpages - src->hot_pages);
	}
	return true;
}

/*
 * --replica-files distinct: copy k > 0 of a trace stands for another
 * instance of the workload, whose files hash to other IDs. A fixed mix of
 * the ID and k (splitmix64's finaliser) into 1..255, the kernel's range.
 */
static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* With --replica-seed S, other IDs again for each S. */
static uint32_t copy_file_id(uint32_t file, uint32_t copy, uint64_t seed)
{
	uint64_t x = (uint64_t)copy << 32 | file;

	if (seed)
		x = mix64(x ^ mix64(seed));
	return 1 + (uint32_t)(mix64(x) % 255);
}

/*
 * A trace replayed as --replicas K copies, each in a logical space of its
 * own, makes a device K times as large from a capture that a TCG guest can
 * take: K instances of the workload sharing one device. Records go out
 * round-robin, one per copy. The first --replica-head records (the fill)
 * are replayed by every copy as they are; after them copy k starts its
 * part of the trace k/K of the way in and wraps around, so the copies do
 * not write the same thing at the same moment (in lockstep, K copies in
 * blocks K times as large would only repeat the small model). Each copy
 * keeps its LBAs, its deaths, and the trace's classes, hints and streams,
 * and its file IDs unless they are distinct (above).
 *
 * One such arrangement is one draw: how the copies' phases meet decides
 * which lifetimes share a block. --replica-seed S > 0 draws another: copy
 * k starts at a point of the rest drawn from S and k, and distinct file
 * IDs are drawn anew, so that replays under several seeds show how much of
 * a difference between two policies is the arrangement's.
 */
static bool trace_next(struct source *src, struct record *r)
{
	size_t i = src->pos;

	if (i >= src->nrecs)
		return false;
	if (i >= src->head) {
		size_t w = src->nrecs - src->head;

		size_t start = src->start ? src->start[src->copy] : 0;

		i = src->head + (i - src->head + start) % w;
	}
	*r = src->recs[i];
	r->page += src->copy * src->copy_pages;
	if (src->distinct_files && src->copy && r->file)
		r->file = copy_file_id(r->file, src->copy, src->replica_seed);
	if (++src->copy == src->replicas) {
		src->copy = 0;
		src->pos++;
	}
	return true;
}

static bool source_next(struct source *src, struct record *r)
{
	if (src->kind != SYN_NONE)
		return synthetic_next(src, r);
	return trace_next(src, r);
}

static void synthetic_init(struct source *src, const struct config *cfg,
			   uint32_t lpages)
{
	memset(src, 0, sizeof(*src));
	src->kind = cfg->synthetic;
	src->seed = cfg->seed;
	src->lpages = lpages;
	src->writes = cfg->writes;
	src->total_page_writes = lpages + cfg->writes;
	src->max_page = lpages;
	if (src->kind == SYN_HOTCOLD) {
		double hot = cfg->hot_space * lpages;

		src->hot_pages = hot < 1 ? 1 : (uint32_t)hot;
		if (src->hot_pages >= lpages)
			die(EXIT_USAGE, "--hot-space leaves no cold pages");
		src->hot_threshold = (uint64_t)(cfg->hot_writes *
						18446744073709551615.0);
		if (cfg->hot_writes >= 1.0)
			src->hot_threshold = UINT64_MAX;
	}
	source_rewind(src);
}

/* ---------------------------------------------------------------------- */
/* Trace parsing                                                          */

struct parse_ctx {
	const char *name;
	unsigned long line;
	uint64_t limit_pages;		/* 0: no limit known yet */
};

static void __attribute__((noreturn, format(printf, 2, 3)))
parse_error(const struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: %s: line %lu: ", prog, ctx->name, ctx->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

/* Whole-token unsigned number; strtoull alone accepts "-1" and "12abc". */
static bool parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*out = strtoull(s, &end, base);
	return !errno && *end == '\0';
}

static int class_from_name(const char *s)
{
	for (int i = 0; i < NR_CLASSES; i++)
		if (!strcmp(s, class_names[i]))
			return i;
	return -1;
}

/*
 * Sectors to pages. A write touches every page it overlaps (the device must
 * program the whole page); a discard can only drop pages it covers fully.
 */
static void sectors_to_pages(const struct parse_ctx *ctx, enum rec_op op,
			     uint64_t sector, uint64_t nr, struct record *r)
{
	uint64_t first, end;

	if (nr == 0)
		parse_error(ctx, "zero-length request");
	if (sector > UINT64_MAX - nr)
		parse_error(ctx, "sector range overflows");
	if (op == REC_WRITE) {
		first = sector / SECTORS_PER_PAGE;
		end = (sector + nr + SECTORS_PER_PAGE - 1) / SECTORS_PER_PAGE;
	} else {
		first = (sector + SECTORS_PER_PAGE - 1) / SECTORS_PER_PAGE;
		end = (sector + nr) / SECTORS_PER_PAGE;
		if (end < first)
			end = first;
	}
	if (end >= NO_PAGE)
		parse_error(ctx, "sector %llu is beyond 16 TiB",
			    (unsigned long long)sector);
	if (ctx->limit_pages && end > ctx->limit_pages)
		parse_error(ctx, "ends at page %llu, beyond %llu logical pages",
			    (unsigned long long)end,
			    (unsigned long long)ctx->limit_pages);
	r->page = (uint32_t)first;
	r->npages = (uint32_t)(end - first);
}

#define MAX_FIELDS	8

static int split_fields(char *line, char **field)
{
	int n = 0;
	char *save = NULL;

	for (char *t = strtok_r(line, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		field[n++] = t;
	}
	return n;
}

/* W <sector> <nr_sectors> <class> <hint> <file> <stream> */
static void parse_write(const struct parse_ctx *ctx, char **f, int n,
			struct record *r)
{
	uint64_t sector, nr, hint, file, stream;
	int class;
	const char *hex;

	if (n != 7)
		parse_error(ctx, "want: W sector nr class hint file stream");
	if (!parse_u64(f[1], 10, &sector) || !parse_u64(f[2], 10, &nr))
		parse_error(ctx, "bad sector or length");
	class = class_from_name(f[3]);
	if (class < 0)
		parse_error(ctx, "unknown class '%s'", f[3]);
	if (!parse_u64(f[4], 10, &hint) || hint > MAX_HINT)
		parse_error(ctx, "hint '%s' is not 0..%d", f[4], MAX_HINT);
	hex = f[5];
	if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X'))
		hex += 2;
	if (!parse_u64(hex, 16, &file) || file > UINT32_MAX)
		parse_error(ctx, "file stream ID '%s' is not 32-bit hex", f[5]);
	if (!parse_u64(f[6], 10, &stream) || stream > UINT16_MAX)
		parse_error(ctx, "stream '%s' is not 0..%u", f[6], UINT16_MAX);
	sectors_to_pages(ctx, REC_WRITE, sector, nr, r);
	r->op = REC_WRITE;
	r->class = (uint8_t)class;
	r->hint = (uint8_t)hint;
	r->file = (uint32_t)file;
	r->stream = (uint16_t)stream;
}

/* D <sector> <nr_sectors> */
static void parse_discard(const struct parse_ctx *ctx, char **f, int n,
			  struct record *r)
{
	uint64_t sector, nr;

	if (n != 3)
		parse_error(ctx, "D needs 2 fields: sector nr_sectors");
	if (!parse_u64(f[1], 10, &sector) || !parse_u64(f[2], 10, &nr))
		parse_error(ctx, "bad sector or length");
	sectors_to_pages(ctx, REC_DISCARD, sector, nr, r);
	r->op = REC_DISCARD;
}

/* Returns false for a blank or comment line. */
static bool parse_line(const struct parse_ctx *ctx, char *line,
		       struct record *r)
{
	char *f[MAX_FIELDS];
	int n = split_fields(line, f);

	memset(r, 0, sizeof(*r));
	if (n == 0 || f[0][0] == '#')
		return false;
	if (!strcmp(f[0], "W"))
		parse_write(ctx, f, n, r);
	else if (!strcmp(f[0], "D"))
		parse_discard(ctx, f, n, r);
	else
		parse_error(ctx, "unknown record type '%s' (want W or D)",
			    f[0]);
	return true;
}

static void trace_load(struct source *src, const char *path,
		       uint64_t limit_pages)
{
	struct parse_ctx ctx = { .name = path, .limit_pages = limit_pages };
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	size_t cap = 0, len = 0;
	char *line = NULL;
	struct record r;

	if (!fp)
		die(EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (fp == stdin)
		ctx.name = "<stdin>";
	memset(src, 0, sizeof(*src));
	while (getline(&line, &len, fp) != -1) {
		ctx.line++;
		if (!parse_line(&ctx, line, &r))
			continue;
		if (src->nrecs == cap) {
			cap = cap ? cap * 2 : 4096;
			src->recs = xrealloc(src->recs, cap, sizeof(r));
		}
		src->recs[src->nrecs++] = r;
		if ((uint64_t)r.page + r.npages > src->max_page)
			src->max_page = (uint64_t)r.page + r.npages;
		if (r.op == REC_WRITE)
			src->total_page_writes += r.npages;
	}
	if (ferror(fp))
		die(EXIT_USAGE, "%s: read error", ctx.name);
	free(line);
	if (fp != stdin)
		fclose(fp);
	src->kind = SYN_NONE;
	src->replicas = 1;
}

/* K copies of a trace of copy_pages logical pages each (see trace_next). */
static void trace_replicate(struct source *src, uint32_t replicas,
			    uint32_t copy_pages, uint64_t head,
			    bool distinct_files, uint64_t seed)
{
	size_t w;

	if ((uint64_t)replicas * copy_pages >= NO_PAGE)
		die(EXIT_USAGE, "--replicas: logical space beyond 2^32 pages");
	if (head > src->nrecs)
		die(EXIT_USAGE, "--replica-head %llu: the trace has %zu records",
		    (unsigned long long)head, src->nrecs);
	src->replicas = replicas;
	src->copy_pages = copy_pages;
	src->head = head;
	src->distinct_files = distinct_files;
	src->replica_seed = seed;
	src->start = xcalloc(replicas, sizeof(*src->start));
	w = src->nrecs - head;
	for (uint32_t k = 0; w && k < replicas; k++)
		src->start[k] = seed ? mix64(mix64(seed) + k) % w :
				       (size_t)k * w / replicas;
	src->total_page_writes *= replicas;
	src->max_page = (uint64_t)replicas * copy_pages;
}

/* ---------------------------------------------------------------------- */
/* The FTL                                                                */

enum block_state { BLK_FREE, BLK_OPEN, BLK_FULL, BLK_VICTIM };

/* Block tag of the shared GC block, whose pages come from any stream. */
#define STREAM_MIXED		UINT8_MAX

struct ftl_stats {
	uint64_t host_pages;		/* counted host page writes */
	uint64_t gc_pages;		/* counted relocations */
	uint64_t victims;		/* counted GC victims */
	uint64_t victim_valid;		/* their valid pages, summed */
	uint64_t discarded;		/* mapped pages discarded */
	uint64_t erases;		/* all erases, warm-up included */
};

struct ftl {
	uint32_t lpages;		/* logical pages */
	uint32_t bpages;		/* pages per erase block */
	uint32_t nblocks;
	enum gc_policy gc;
	bool gc_per_stream;
	unsigned int nstreams;

	uint32_t *l2p;			/* logical -> physical page */
	uint32_t *p2l;			/* physical -> logical or NO_PAGE */
	uint32_t *valid;		/* per block: valid pages */
	uint64_t *closed_at;		/* per block: clock when filled */
	uint8_t *state;			/* per block: enum block_state */
	/*
	 * Per block: the stream whose pages it holds, or STREAM_MIXED. A host
	 * block holds one stream, and so does a GC block with per-stream GC,
	 * so one byte per block is all the stream tracking GC needs.
	 */
	uint8_t *tag;
	/*
	 * Per logical page: the stream the host last wrote it on. Kept only
	 * with per-stream GC, and only so that ftl_check() can prove that
	 * every page still sits in a block of that stream.
	 */
	uint8_t *lstream;

	uint32_t *free_stack;
	uint32_t nfree;

	/*
	 * Full blocks sit in a doubly linked list per valid count, so an
	 * invalidation moves a block one bucket down in O(1) and the greedy
	 * victim is the head of the lowest non-empty bucket.
	 */
	uint32_t *next, *prev;		/* per block */
	uint32_t *head, *tail;		/* per valid count 0..bpages */

	/*
	 * Open blocks: slots 0..nstreams-1 for the host, then from gc_base
	 * one slot for GC (shared) or one per stream (per-stream).
	 */
	unsigned int nslots;
	unsigned int gc_base;
	uint32_t *open_blk;
	uint32_t *open_off;

	uint64_t *stream_pages;		/* counted writes per stream */
	uint64_t *stream_gc_pages;	/* counted relocations per stream */

	uint64_t clock;			/* all host page writes so far */
	uint64_t warmup;		/* host page writes not counted */
	bool counting;
	struct ftl_stats st;
};

static void bucket_insert(struct ftl *f, uint32_t b)
{
	uint32_t v = f->valid[b];

	f->next[b] = NO_BLOCK;
	f->prev[b] = f->tail[v];
	if (f->tail[v] != NO_BLOCK)
		f->next[f->tail[v]] = b;
	else
		f->head[v] = b;
	f->tail[v] = b;
}

static void bucket_remove(struct ftl *f, uint32_t b)
{
	uint32_t v = f->valid[b];

	if (f->prev[b] != NO_BLOCK)
		f->next[f->prev[b]] = f->next[b];
	else
		f->head[v] = f->next[b];
	if (f->next[b] != NO_BLOCK)
		f->prev[f->next[b]] = f->prev[b];
	else
		f->tail[v] = f->prev[b];
}

/* GC open blocks: one for all streams, or one per stream. */
static unsigned int gc_slots(enum gc_dest dest, unsigned int streams)
{
	return dest == GC_DEST_PER_STREAM ? streams : 1;
}

static void ftl_init(struct ftl *f, const struct config *cfg,
		     uint32_t lpages, uint32_t nblocks)
{
	uint32_t bpages = cfg->block_pages;
	unsigned int streams = cfg->streams;
	size_t ppages = (size_t)nblocks * bpages;

	memset(f, 0, sizeof(*f));
	f->lpages = lpages;
	f->bpages = bpages;
	f->nblocks = nblocks;
	f->gc = cfg->gc;
	f->gc_per_stream = cfg->gc_dest == GC_DEST_PER_STREAM;
	f->nstreams = streams;
	f->warmup = cfg->warmup_pages;

	f->l2p = xcalloc(lpages, sizeof(*f->l2p));
	f->p2l = xcalloc(ppages, sizeof(*f->p2l));
	fill_u32(f->l2p, lpages, NO_PAGE);
	fill_u32(f->p2l, ppages, NO_PAGE);
	f->valid = xcalloc(nblocks, sizeof(*f->valid));
	f->closed_at = xcalloc(nblocks, sizeof(*f->closed_at));
	f->state = xcalloc(nblocks, sizeof(*f->state));
	f->tag = xcalloc(nblocks, sizeof(*f->tag));
	if (f->gc_per_stream)
		f->lstream = xcalloc(lpages, sizeof(*f->lstream));
	f->next = xcalloc(nblocks, sizeof(*f->next));
	f->prev = xcalloc(nblocks, sizeof(*f->prev));
	f->head = xcalloc(bpages + 1, sizeof(*f->head));
	f->tail = xcalloc(bpages + 1, sizeof(*f->tail));
	fill_u32(f->head, bpages + 1, NO_BLOCK);
	fill_u32(f->tail, bpages + 1, NO_BLOCK);

	/* Pushed in reverse so that block 0 is handed out first. */
	f->free_stack = xcalloc(nblocks, sizeof(*f->free_stack));
	for (uint32_t b = 0; b < nblocks; b++)
		f->free_stack[f->nfree++] = nblocks - 1 - b;

	f->gc_base = streams;
	f->nslots = streams + gc_slots(cfg->gc_dest, streams);
	f->open_blk = xcalloc(f->nslots, sizeof(*f->open_blk));
	f->open_off = xcalloc(f->nslots, sizeof(*f->open_off));
	fill_u32(f->open_blk, f->nslots, NO_BLOCK);
	f->stream_pages = xcalloc(streams, sizeof(*f->stream_pages));
	f->stream_gc_pages = xcalloc(streams, sizeof(*f->stream_gc_pages));
}

static void ftl_free(struct ftl *f)
{
	free(f->l2p);
	free(f->p2l);
	free(f->valid);
	free(f->closed_at);
	free(f->state);
	free(f->tag);
	free(f->lstream);
	free(f->next);
	free(f->prev);
	free(f->head);
	free(f->tail);
	free(f->free_stack);
	free(f->open_blk);
	free(f->open_off);
	free(f->stream_pages);
	free(f->stream_gc_pages);
}

/* The stream tag a block opened in a slot gets. */
static uint8_t slot_tag(const struct ftl *f, unsigned int slot)
{
	if (slot < f->gc_base)
		return (uint8_t)slot;
	if (f->gc_per_stream)
		return (uint8_t)(slot - f->gc_base);
	return STREAM_MIXED;
}

/*
 * The GC slot a victim's pages go to. With per-stream GC every block holds
 * one stream, so the victim's tag is the stream of each of its pages.
 */
static unsigned int gc_slot_for(const struct ftl *f, uint32_t victim)
{
	return f->gc_base + (f->gc_per_stream ? f->tag[victim] : 0);
}

/* Drop the current copy of a logical page, if any. */
static inline void ftl_invalidate(struct ftl *f, uint32_t lpn)
{
	uint32_t ppn = f->l2p[lpn];
	uint32_t b;

	if (ppn == NO_PAGE)
		return;
	f->l2p[lpn] = NO_PAGE;
	f->p2l[ppn] = NO_PAGE;
	b = ppn / f->bpages;
	if (f->state[b] == BLK_FULL) {
		bucket_remove(f, b);
		f->valid[b]--;
		bucket_insert(f, b);
	} else {
		f->valid[b]--;
	}
}

static uint32_t victim_greedy(const struct ftl *f)
{
	for (uint32_t v = 0; v <= f->bpages; v++)
		if (f->head[v] != NO_BLOCK)
			return f->head[v];
	return NO_BLOCK;
}

/*
 * Cost-benefit after Rosenblum and Ousterhout's LFS cleaner, with the
 * flash cost: reclaiming 1-u of a block costs reading and writing the u
 * that is still valid, hence age * (1 - u) / (2u). Age is host page writes
 * since the block filled: old blocks have had their chance to die, so their
 * remaining valid data is likely cold and worth moving out of the way.
 * An O(blocks) scan per collection: simple, and fast enough for the block
 * counts this simulator is used with.
 */
static uint32_t victim_cost_benefit(const struct ftl *f)
{
	uint32_t best = NO_BLOCK;
	double best_score = -1.0;

	for (uint32_t b = 0; b < f->nblocks; b++) {
		double u, age, score;

		if (f->state[b] != BLK_FULL)
			continue;
		if (f->valid[b] == 0)
			return b;
		u = (double)f->valid[b] / f->bpages;
		age = (double)(f->clock - f->closed_at[b]) + 1.0;
		score = age * (1.0 - u) / (2.0 * u);
		if (score > best_score) {
			best_score = score;
			best = b;
		}
	}
	return best;
}

static void ftl_append(struct ftl *f, unsigned int slot, uint32_t lpn);

static void ftl_collect_one(struct ftl *f)
{
	uint32_t victim, base, moved = 0;
	unsigned int dest;

	victim = f->gc == GC_GREEDY ? victim_greedy(f) : victim_cost_benefit(f);
	if (victim == NO_BLOCK || f->valid[victim] >= f->bpages)
		die(1, "no reclaimable block: too little over-provisioning");
	bucket_remove(f, victim);
	f->state[victim] = BLK_VICTIM;
	dest = gc_slot_for(f, victim);
	if (f->counting) {
		f->st.victims++;
		f->st.victim_valid += f->valid[victim];
	}

	base = victim * f->bpages;
	for (uint32_t i = 0; i < f->bpages && f->valid[victim]; i++) {
		uint32_t lpn = f->p2l[base + i];

		if (lpn == NO_PAGE)
			continue;
		f->p2l[base + i] = NO_PAGE;
		f->valid[victim]--;
		ftl_append(f, dest, lpn);
		moved++;
	}
	if (f->counting) {
		f->st.gc_pages += moved;
		if (f->gc_per_stream)
			f->stream_gc_pages[f->tag[victim]] += moved;
	}

	f->state[victim] = BLK_FREE;
	f->free_stack[f->nfree++] = victim;
	f->st.erases++;
}

static uint32_t ftl_take_free(struct ftl *f, unsigned int slot)
{
	uint32_t b;

	/* Only host streams trigger GC; GC blocks live off the reserve. */
	if (slot < f->gc_base)
		while (f->nfree < GC_RESERVE)
			ftl_collect_one(f);
	if (!f->nfree)
		die(1, "internal error: no free block for slot %u", slot);
	b = f->free_stack[--f->nfree];
	f->state[b] = BLK_OPEN;
	f->tag[b] = slot_tag(f, slot);
	f->valid[b] = 0;
	f->open_blk[slot] = b;
	f->open_off[slot] = 0;
	return b;
}

/* Program lpn into the open block of a slot, opening one if needed. */
static void ftl_append(struct ftl *f, unsigned int slot, uint32_t lpn)
{
	uint32_t b = f->open_blk[slot];
	uint32_t ppn;

	if (b == NO_BLOCK)
		b = ftl_take_free(f, slot);
	ppn = b * f->bpages + f->open_off[slot];
	f->p2l[ppn] = lpn;
	f->l2p[lpn] = ppn;
	f->valid[b]++;
	if (++f->open_off[slot] == f->bpages) {
		f->state[b] = BLK_FULL;
		f->closed_at[b] = f->clock;
		bucket_insert(f, b);
		f->open_blk[slot] = NO_BLOCK;
	}
}

static inline void ftl_host_write(struct ftl *f, uint32_t lpn,
				  unsigned int stream)
{
	/* GC triggered by this write is charged to it. */
	f->counting = f->clock >= f->warmup;
	ftl_invalidate(f, lpn);
	ftl_append(f, stream, lpn);
	if (f->lstream)
		f->lstream[lpn] = (uint8_t)stream;
	if (f->counting) {
		f->st.host_pages++;
		f->stream_pages[stream]++;
	}
	f->clock++;
}

static inline void ftl_discard(struct ftl *f, uint32_t lpn)
{
	if (f->l2p[lpn] != NO_PAGE)
		f->st.discarded++;
	ftl_invalidate(f, lpn);
}

/* Both maps agree and every block's valid count is what it holds. */
static void check_maps(const struct ftl *f)
{
	for (uint32_t lpn = 0; lpn < f->lpages; lpn++) {
		uint32_t ppn = f->l2p[lpn];

		if (ppn != NO_PAGE && f->p2l[ppn] != lpn)
			die(1, "internal error: page %u maps to %u, back to %u",
			    lpn, ppn, f->p2l[ppn]);
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		uint32_t v = 0;

		for (uint32_t i = 0; i < f->bpages; i++) {
			uint32_t lpn = f->p2l[b * f->bpages + i];

			if (lpn == NO_PAGE)
				continue;
			if (f->l2p[lpn] != b * f->bpages + i)
				die(1, "internal error: stale page %u in %u",
				    lpn, b);
			v++;
		}
		if (v != f->valid[b] || (f->state[b] == BLK_FREE && v))
			die(1, "internal error: block %u: %u valid, not %u",
			    b, v, f->valid[b]);
	}
}

/* The bucket lists hold exactly the full blocks, each under its count. */
static void check_lists(const struct ftl *f)
{
	uint64_t full = 0, listed = 0;

	for (uint32_t b = 0; b < f->nblocks; b++)
		full += f->state[b] == BLK_FULL;
	for (uint32_t v = 0; v <= f->bpages; v++)
		for (uint32_t b = f->head[v]; b != NO_BLOCK; b = f->next[b]) {
			if (f->state[b] != BLK_FULL || f->valid[b] != v ||
			    ++listed > full)
				die(1, "internal error: bucket %u, block %u",
				    v, b);
		}
	if (listed != full)
		die(1, "internal error: %llu full blocks, %llu listed",
		    (unsigned long long)full, (unsigned long long)listed);
}

/*
 * Every block is accounted for once: free ones on the free stack, open
 * ones in exactly one slot, tagged with that slot's stream and written
 * only below the slot's offset; no victim is left half collected. This is
 * the free-block accounting the reserve argument (GC_RESERVE) rests on.
 */
static void check_space(const struct ftl *f)
{
	uint8_t *seen = xcalloc(f->nblocks, 1);
	uint32_t nopen = 0, nstate_free = 0, nstate_open = 0;

	for (uint32_t i = 0; i < f->nfree; i++) {
		uint32_t b = f->free_stack[i];

		if (b >= f->nblocks || seen[b]++ || f->state[b] != BLK_FREE)
			die(1, "internal error: free stack entry %u (%u)",
			    i, b);
	}
	for (unsigned int slot = 0; slot < f->nslots; slot++) {
		uint32_t b = f->open_blk[slot];

		if (b == NO_BLOCK)
			continue;
		nopen++;
		if (b >= f->nblocks || seen[b]++ || f->state[b] != BLK_OPEN ||
		    f->tag[b] != slot_tag(f, slot) ||
		    f->open_off[slot] >= f->bpages ||
		    f->valid[b] > f->open_off[slot])
			die(1, "internal error: slot %u, open block %u",
			    slot, b);
		for (uint32_t i = f->open_off[slot]; i < f->bpages; i++)
			if (f->p2l[b * f->bpages + i] != NO_PAGE)
				die(1, "internal error: block %u written at "
				    "%u, beyond its offset", b, i);
	}
	for (uint32_t b = 0; b < f->nblocks; b++) {
		nstate_free += f->state[b] == BLK_FREE;
		nstate_open += f->state[b] == BLK_OPEN;
		if (f->state[b] == BLK_VICTIM)
			die(1, "internal error: block %u left a victim", b);
	}
	if (nstate_free != f->nfree || nstate_open != nopen)
		die(1, "internal error: %u free and %u open blocks, %u and %u "
		    "listed", nstate_free, nstate_open, f->nfree, nopen);
	free(seen);
}

/*
 * With per-stream GC, streams never mix: every used block carries a real
 * stream, every valid page sits in a block of the stream the host last
 * wrote it on, and the per-stream relocations add up to the total.
 */
static void check_streams(const struct ftl *f)
{
	uint64_t gc = 0;

	if (!f->gc_per_stream)
		return;
	for (uint32_t b = 0; b < f->nblocks; b++)
		if (f->state[b] != BLK_FREE && f->tag[b] >= f->nstreams)
			die(1, "internal error: block %u tagged %u", b,
			    f->tag[b]);
	for (uint32_t lpn = 0; lpn < f->lpages; lpn++) {
		uint32_t ppn = f->l2p[lpn];

		if (ppn != NO_PAGE &&
		    f->tag[ppn / f->bpages] != f->lstream[lpn])
			die(1, "internal error: page %u of stream %u in "
			    "block %u of stream %u", lpn, f->lstream[lpn],
			    ppn / f->bpages, f->tag[ppn / f->bpages]);
	}
	for (unsigned int s = 0; s < f->nstreams; s++)
		gc += f->stream_gc_pages[s];
	if (gc != f->st.gc_pages)
		die(1, "internal error: %llu relocations by stream, %llu "
		    "in all", (unsigned long long)gc,
		    (unsigned long long)f->st.gc_pages);
}

/*
 * Cross-check the maps, the valid counts, the bucket lists, the free and
 * open blocks and the stream tags once at the end, so that every run (and
 * every test) also proves the bookkeeping behind its numbers.
 * O(physical pages): negligible next to the replay.
 */
static void ftl_check(const struct ftl *f)
{
	check_maps(f);
	check_lists(f);
	check_space(f);
	check_streams(f);
}

/* ---------------------------------------------------------------------- */
/* Placement policies                                                     */

/* kernel: the stream the patched kernel chose, folded onto the device's. */
static unsigned int place_kernel(const struct record *r, unsigned int n)
{
	return r->stream ? (r->stream - 1u) % n : 0;
}

/*
 * lifetime: only the write lifetime hint, as Linux 6.12 passes it down.
 * Unhinted and WRITE_LIFE_NONE data share stream 0; SHORT..EXTREME are
 * spread in order over the remaining streams (with one stream there is
 * nothing to spread over).
 */
static unsigned int place_lifetime(const struct record *r, unsigned int n)
{
	unsigned int levels = MAX_HINT - HINT_SHORT + 1;

	if (n < 2 || r->hint < HINT_SHORT)
		return 0;
	return 1 + (r->hint - HINT_SHORT) * (n - 1) / levels;
}

/*
 * fstream: one stream per kind of file-system structure, after FStream
 * (Rho et al., "FStream: Managing Flash Streams in the File System",
 * FAST 2018), which gives ext4's journal, its inode, directory and other
 * metadata, and file data streams of their own. A trace tells the journal
 * (transaction class) and metadata (metadata class) from the rest, but not
 * one kind of metadata from another, so: data on 0, journal on 1, metadata
 * on 2; with fewer streams the later kinds share the last one. Everything
 * that is not file-system structure (swap, background copies, realtime) is
 * data to it, as it was to FStream.
 */
static unsigned int place_fstream(const struct record *r, unsigned int n)
{
	unsigned int s = 0;

	if (r->class == CLASS_TRANSACTION)
		s = 1;
	else if (r->class == CLASS_METADATA)
		s = 2;
	return s < n ? s : n - 1;
}

/* lru: the offset in a pool of @pool file streams of file ID @file. */
static unsigned int file_lru_stream(struct file_lru *l, uint32_t file,
				    unsigned int pool, uint64_t idle,
				    uint64_t now, bool join)
{
	unsigned int id = file % NR_FILE_IDS, s = l->stream[id];

	if (!l->last[id] || now + 1 - l->last[id] > idle || s >= pool) {
		s = pool - 1;
		for (unsigned int i = pool - 1; i-- > 0;)
			if (l->stream_last[i] < l->stream_last[s])
				s = i;
		/*
		 * idle: only a stream nobody wrote for a while is free; else
		 * join the last new file, so that a burst of new files stays
		 * together as a single stream would keep it.
		 */
		if (join && l->stream_last[s] &&
		    now + 1 - l->stream_last[s] <= idle && l->last_new < pool)
			s = l->last_new;
		l->stream[id] = (uint8_t)s;
		l->last_new = s;
	}
	l->last[id] = now + 1;
	l->stream_last[s] = now + 1;
	return s;
}

/*
 * --map-new-blocks (with temp-int): a write to blocks that hold none of its
 * file's data yet goes to the middle of the files range, floor(n / 2) of
 * n, and does not count, as the kernel's rate does with BIO_NEW_BLOCKS.
 * The file system knows which blocks it has just allocated; a trace does
 * not say, so: a write none of whose pages its file wrote last (or that
 * were discarded since) is taken as one to new blocks. Every write marks
 * its pages as its file's, and a discard clears them.
 */
static bool write_to_new_blocks(struct file_lru *l, const struct record *r)
{
	bool overwrite = false;

	for (uint32_t p = r->page; p < r->page + r->npages; p++) {
		if (r->file && l->page_file[p] == r->file)
			overwrite = true;
		l->page_file[p] = r->file;
	}
	return !overwrite;
}

/* map: the stream (1..n) that struct map_spec gives a write. */
static unsigned int map_stream(const struct map_spec *m, struct file_lru *l,
			       const struct record *r, unsigned int n,
			       uint64_t now)
{
	unsigned int nr_class = m->nr_classes < n / 2 ? m->nr_classes : n / 2;
	unsigned int rank = m->rank[r->class];
	unsigned int pool = n - nr_class, reserved = 0;
	bool new_blocks = l->page_file && write_to_new_blocks(l, r);

	if (rank && rank <= nr_class)
		return rank;
	if (m->lifetimes && r->hint >= HINT_SHORT) {
		unsigned int level = r->hint - HINT_SHORT;

		if (pool > NR_LIFETIMES)
			return nr_class + 1 + level;
		/* Shared with the files: lru keeps them off it while busy. */
		level = level * pool / NR_LIFETIMES;
		l->stream_last[level] = now + 1;
		return nr_class + 1 + level;
	}
	if (m->lifetimes && pool > NR_LIFETIMES)
		reserved = NR_LIFETIMES;
	if (m->files == FILES_NONE)
		return nr_class + reserved + 1;
	if (m->files == FILES_TEMP_INT && r->file && new_blocks)
		return nr_class + reserved + 1 + (pool - reserved) / 2;
	if (m->files == FILES_TEMP_INT && r->file)
		return nr_class + reserved + 1 +
			file_temp_int_stream(l, r->file, pool - reserved,
					     m->file_idle, m->file_step_log2,
					     now);
	if ((m->files == FILES_LRU || m->files == FILES_IDLE) && r->file)
		return nr_class + reserved + 1 +
			file_lru_stream(l, r->file, pool - reserved,
					m->file_idle, now,
					m->files == FILES_IDLE);
	return nr_class + reserved + 1 + r->file % (pool - reserved);
}

/*
 * autostream: an in-device guess from the LBA alone, after the SFR scheme
 * of AutoStream (Yang et al., SYSTOR 2017): Sequentiality, Frequency,
 * Recency.
 *
 * - The logical space is cut into chunks (default 1 MiB). Each chunk keeps a
 *   write count and the time of its last write; time is the host page
 *   write counter.
 * - Recency: before each update the count decays by 2^(-dt / half_life).
 * - Frequency: a request adds 1 to its chunk's decayed count and goes to
 *   stream floor(log2(count)), clamped to 0..N-1: each stream up holds
 *   chunks written about twice as often.
 * - Sequentiality: a request that starts where the previous one ended
 *   continues its stream, and adds to a chunk's count only when it enters
 *   a new chunk, so one large sequential write is not mistaken for a hot
 *   chunk.
 *
 * The default half-life is the number of chunks, in host page writes: the
 * mean gap between writes to a chunk under uniform random 4 KiB writes.
 * Uniformly written chunks then settle at a count near 2 (stream 1), chunks
 * written k times more often near 2k, and rarely written ones near 1
 * (stream 0), so the streams split by relative write frequency whatever the
 * device size.
 */
struct autostream {
	uint32_t chunk_pages;
	uint32_t nchunks;
	double half_life;
	float *count;
	uint64_t *last;
	uint64_t prev_end;		/* page after the previous request */
	uint32_t prev_chunk;
	unsigned int prev_stream;
};

static void autostream_init(struct autostream *as, const struct config *cfg,
			    uint32_t lpages)
{
	memset(as, 0, sizeof(*as));
	as->chunk_pages = cfg->as_chunk_kib / 4;
	if (!as->chunk_pages)
		as->chunk_pages = 1;
	as->nchunks = (lpages + as->chunk_pages - 1) / as->chunk_pages;
	as->half_life = cfg->as_half_life > 0 ? cfg->as_half_life :
						as->nchunks;
	as->count = xcalloc(as->nchunks, sizeof(*as->count));
	as->last = xcalloc(as->nchunks, sizeof(*as->last));
	as->prev_end = UINT64_MAX;
	as->prev_chunk = NO_BLOCK;
}

static unsigned int place_autostream(struct autostream *as,
				     const struct record *r, uint64_t now,
				     unsigned int n)
{
	uint32_t c = r->page / as->chunk_pages;
	bool sequential = r->page == as->prev_end;
	double count;
	unsigned int s;

	count = as->count[c] *
		exp2(-(double)(now - as->last[c]) / as->half_life);
	if (!(sequential && c == as->prev_chunk))
		count += 1.0;
	as->count[c] = (float)count;
	as->last[c] = now;

	if (sequential) {
		s = as->prev_stream;
	} else {
		double l = count >= 1.0 ? floor(log2(count)) : 0.0;

		s = l >= n - 1 ? n - 1 : (unsigned int)l;
	}
	as->prev_end = (uint64_t)r->page + r->npages;
	as->prev_chunk = (r->page + r->npages - 1) / as->chunk_pages;
	as->prev_stream = s;
	return s;
}

static void autostream_free(struct autostream *as)
{
	free(as->count);
	free(as->last);
}

/*
 * oracle: place each page write by the number of host page writes until
 * that page is overwritten or discarded, which a first pass over the
 * workload computes. Pages that never die go to the longest-lived bin.
 *
 * Bin edges are logarithmic because lifetimes span orders of magnitude and
 * what matters for GC is the ratio between them, not the difference. The
 * range they divide is taken from the workload itself, from the 1st to
 * the 99th percentile of the finite lifetimes: anchoring on fixed numbers
 * would put every write of a small or a large device into one bin, and the
 * extreme percentiles would let a handful of outliers stretch the range
 * until the middle bins hold everything. N bins need N-1 edges; they sit
 * at lo * (hi/lo)^(k/N), k = 1..N-1, so the two outer bins also catch the
 * tails beyond the percentiles.
 */
#define LIFE_NEVER	UINT32_MAX
#define HIST_SUB	8		/* histogram steps per octave */
#define HIST_SIZE	(33 * HIST_SUB)

/* Log-linear histogram index: octave, then 3 bits of mantissa. */
static unsigned int life_bucket(uint32_t x)
{
	unsigned int e = 31 - (unsigned int)__builtin_clz(x);
	uint32_t frac = e >= 3 ? (x >> (e - 3)) & 7 : (x << (3 - e)) & 7;

	return e * HIST_SUB + frac;
}

static double bucket_low(unsigned int i)
{
	return ldexp(HIST_SUB + i % HIST_SUB, (int)(i / HIST_SUB) - 3);
}

static double hist_quantile(const uint64_t *hist, uint64_t total, double q)
{
	uint64_t want = (uint64_t)(q * (double)total), seen = 0;

	for (unsigned int i = 0; i < HIST_SIZE; i++) {
		seen += hist[i];
		if (seen > want)
			return bucket_low(i);
	}
	return bucket_low(HIST_SIZE - 1);
}

/* First pass: the lifetime of every page write, in host page writes. */
static uint32_t *oracle_lifetimes(struct source *src, uint32_t lpages,
				  uint64_t nwrites)
{
	uint32_t *life = xcalloc(nwrites, sizeof(*life));
	uint32_t *last = xcalloc(lpages, sizeof(*last));
	uint64_t t = 0;
	struct record r;

	fill_u32(life, nwrites, LIFE_NEVER);
	fill_u32(last, lpages, NO_PAGE);
	source_rewind(src);
	while (source_next(src, &r)) {
		for (uint32_t p = r.page; p < r.page + r.npages; p++) {
			if (last[p] != NO_PAGE)
				life[last[p]] = (uint32_t)(t - last[p]);
			if (r.op == REC_WRITE)
				last[p] = (uint32_t)t++;
			else
				last[p] = NO_PAGE;
		}
	}
	free(last);
	source_rewind(src);
	return life;
}

static uint8_t *oracle_bins(struct source *src, uint32_t lpages,
			    unsigned int n, double *edges)
{
	uint64_t nwrites = src->total_page_writes, finite = 0;
	uint64_t *hist = xcalloc(HIST_SIZE, sizeof(*hist));
	uint32_t *life;
	uint8_t *bin;
	double lo, hi;

	if (nwrites >= LIFE_NEVER)
		die(EXIT_USAGE, "oracle: at most %u page writes",
		    LIFE_NEVER - 1);
	life = oracle_lifetimes(src, lpages, nwrites);
	for (uint64_t t = 0; t < nwrites; t++) {
		if (life[t] == LIFE_NEVER)
			continue;
		hist[life_bucket(life[t])]++;
		finite++;
	}
	lo = hist_quantile(hist, finite, 0.01);
	hi = hist_quantile(hist, finite, 0.99);
	if (hi <= lo)
		hi = lo * 2;
	for (unsigned int k = 1; k < n; k++)
		edges[k - 1] = lo * pow(hi / lo, (double)k / n);

	bin = xcalloc(nwrites, sizeof(*bin));
	for (uint64_t t = 0; t < nwrites; t++) {
		unsigned int b = 0;

		if (life[t] == LIFE_NEVER)
			b = n - 1;
		else
			while (b < n - 1 && life[t] >= edges[b])
				b++;
		bin[t] = (uint8_t)b;
	}
	free(life);
	free(hist);
	return bin;
}

/* ---------------------------------------------------------------------- */
/* Replay and report                                                      */

struct placer {
	enum placement policy;
	unsigned int n;
	const struct map_spec *map;
	struct file_lru lru;		/* map: --map-files lru, idle, temp-int */
	uint64_t map_differs;		/* writes not where the kernel put them */
	struct autostream as;
	uint8_t *oracle;		/* per host page write */
	double edges[MAX_STREAMS];
};

static unsigned int place_record(struct placer *pl, const struct record *r,
				 uint64_t now)
{
	switch (pl->policy) {
	case PL_KERNEL:
		return place_kernel(r, pl->n);
	case PL_LIFETIME:
		return place_lifetime(r, pl->n);
	case PL_AUTOSTREAM:
		return place_autostream(&pl->as, r, now, pl->n);
	case PL_FSTREAM:
		return place_fstream(r, pl->n);
	case PL_MAP: {
		unsigned int s = map_stream(pl->map, &pl->lru, r, pl->n, now);

		if (s != r->stream)
			pl->map_differs++;
		return s - 1;
	}
	default:
		return 0;	/* single; oracle decides per page */
	}
}

static void replay(struct ftl *f, struct source *src, struct placer *pl)
{
	struct record r;

	source_rewind(src);
	while (source_next(src, &r)) {
		uint32_t end = r.page + r.npages;
		unsigned int s;

		if (r.op == REC_DISCARD) {
			for (uint32_t p = r.page; p < end; p++) {
				if (pl->lru.page_file)
					pl->lru.page_file[p] = 0;
				ftl_discard(f, p);
			}
			continue;
		}
		s = place_record(pl, &r, f->clock);
		if (pl->policy == PL_ORACLE) {
			for (uint32_t p = r.page; p < end; p++)
				ftl_host_write(f, p, pl->oracle[f->clock]);
		} else {
			for (uint32_t p = r.page; p < end; p++)
				ftl_host_write(f, p, s);
		}
	}
}

static void print_u64_list(const char *key, const uint64_t *v,
			   unsigned int n)
{
	printf("%s", key);
	for (unsigned int i = 0; i < n; i++)
		printf("%s%llu", i ? "," : " ", (unsigned long long)v[i]);
	printf("\n");
}

/*
 * Per-stream GC only, where each block belongs to one stream: relocations
 * per stream (stream i's WAF is 1 + gc / host) and the blocks each stream
 * holds at the end, i.e. how the shared spare ended up split.
 */
static void report_streams(const struct ftl *f)
{
	uint64_t blocks[MAX_STREAMS] = { 0 };

	for (uint32_t b = 0; b < f->nblocks; b++)
		if (f->state[b] != BLK_FREE)
			blocks[f->tag[b]]++;
	print_u64_list("stream_gc_pages", f->stream_gc_pages, f->nstreams);
	print_u64_list("stream_blocks", blocks, f->nstreams);
}

static void report(const struct ftl *f, const struct config *cfg,
		   const struct placer *pl, const char *workload)
{
	const struct ftl_stats *st = &f->st;
	uint64_t media = st->host_pages + st->gc_pages;
	double waf = st->host_pages ? (double)media / st->host_pages : 0.0;
	double vratio = st->victims ?
		(double)st->victim_valid / ((double)st->victims * f->bpages) :
		0.0;

	printf("workload %s\n", workload);
	printf("policy %s\n", placement_names[cfg->policy]);
	printf("streams %u\n", cfg->streams);
	printf("gc %s\n", gc_names[cfg->gc]);
	printf("gc_dest %s\n", gc_dest_names[cfg->gc_dest]);
	printf("replicas %u\n", cfg->replicas);
	if (cfg->replica_seed)
		printf("replica_seed %llu\n",
		       (unsigned long long)cfg->replica_seed);
	printf("logical_pages %u\n", f->lpages);
	printf("physical_pages %llu\n",
	       (unsigned long long)f->nblocks * f->bpages);
	printf("block_pages %u\n", f->bpages);
	printf("op %.4f\n", (double)f->nblocks * f->bpages / f->lpages - 1.0);
	printf("warmup_pages %llu\n", (unsigned long long)f->warmup);
	printf("host_pages %llu\n", (unsigned long long)st->host_pages);
	printf("media_pages %llu\n", (unsigned long long)media);
	printf("gc_pages %llu\n", (unsigned long long)st->gc_pages);
	printf("waf %.3f\n", waf);
	printf("gc_victims %llu\n", (unsigned long long)st->victims);
	printf("victim_valid_ratio %.4f\n", vratio);
	printf("discarded_pages %llu\n", (unsigned long long)st->discarded);
	printf("erases %llu\n", (unsigned long long)st->erases);
	print_u64_list("stream_pages", f->stream_pages, pl->n);
	if (f->gc_per_stream)
		report_streams(f);
	if (pl->policy == PL_ORACLE && pl->n > 1) {
		printf("oracle_edges");
		for (unsigned int k = 0; k + 1 < pl->n; k++)
			printf("%s%.0f", k ? "," : " ", pl->edges[k]);
		printf("\n");
	}
	if (pl->policy == PL_MAP)
		printf("map_differs_from_kernel %llu\n",
		       (unsigned long long)pl->map_differs);
	if (pl->policy == PL_AUTOSTREAM)
		printf("autostream_chunk_pages %u\nautostream_half_life %.0f\n",
		       pl->as.chunk_pages, pl->as.half_life);
	if (!st->host_pages)
		fprintf(stderr, "%s: warning: no host writes after warm-up\n",
			prog);
}

/* ---------------------------------------------------------------------- */
/* Options                                                                */

static void usage(FILE *out)
{
	fprintf(out,
"usage: %s --trace FILE|- [options]\n"
"       %s --synthetic uniform|hotcold --writes K [options]\n"
"  --logical-gib X | --logical-pages N   logical space (default: from the\n"
"                          trace; 1 GiB for synthetic workloads)\n"
"  --op F                  over-provisioning, fraction of logical (0.28)\n"
"  --block-pages N         pages (4 KiB) per erase block (256)\n"
"  --streams N             open host blocks, 1..%d (1)\n"
"  --policy NAME           single|kernel|lifetime|oracle|autostream|map|\n"
"                          fstream (single)\n"
"  --map-classes LIST      map: classes with dedicated streams, in order,\n"
"                          comma-separated, or none (the series' order:\n"
"                          transaction,background,metadata,paging,realtime)\n"
"  --map-lifetimes 0|1     map: streams for the lifetime hints (1)\n"
"  --map-files none|hash|lru|idle|temp-int   map: file stream IDs onto\n"
"                          the rest: not at all, folded by value, by\n"
"                          recent use, by recent use with bursts of new\n"
"                          files kept together, or by how often they write\n"
"                          (the kernel's rate, in its arithmetic) (hash; 0\n"
"                          and 1 are none and hash)\n"
"  --map-file-idle K       map: lru and idle: a file that has not written\n"
"                          for K host pages is new again; temp-int: the\n"
"                          half-life of the write counts (65536)\n"
"  --map-file-step N       map: temp-int: each N-fold drop in write rate\n"
"                          one stream further; a power of two (4: the\n"
"                          kernel's rate)\n"
"  --map-new-blocks 0|1    map: temp-int: writes to new blocks (pages their\n"
"                          file did not write last) in the middle of the\n"
"                          files range, uncounted (BIO_NEW_BLOCKS) (0)\n"
"  --gc NAME               greedy|cost-benefit (greedy)\n"
"  --gc-dest shared|per-stream   GC writes moved pages to one open block\n"
"                          for all streams, or to one per stream (shared)\n"
"  --warmup-pages K        do not count the first K host page writes (0)\n"
"  --seed S                synthetic workload seed (1)\n"
"  --hot-space F --hot-writes F   hotcold split (0.2, 0.8)\n"
"  --as-chunk-kib N        autostream chunk size (1024)\n"
"  --as-half-life T        autostream decay half-life, host pages\n"
"                          (default: number of chunks)\n"
"  --replicas K            replay the trace as K copies side by side, each\n"
"                          in --logical-pages of its own, copy k starting\n"
"                          k/K of the way in (1)\n"
"  --replica-head N        the first N records (a fill): every copy\n"
"                          replays them first, unshifted (0)\n"
"  --replica-files shared|distinct   copies share the trace's file IDs,\n"
"                          or copy k > 0 gets IDs of its own, a fixed mix\n"
"                          of the ID and k into 1..255 (shared)\n"
"  --replica-seed S        S > 0: copy k starts at a point drawn from S\n"
"                          and k, and distinct IDs are drawn from S too:\n"
"                          another arrangement of the same copies (0)\n",
		prog, prog, MAX_STREAMS);
}

static int name_index(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return -1;
}

static uint64_t opt_u64(const char *opt, const char *s)
{
	uint64_t v;

	if (!parse_u64(s, 10, &v))
		die(EXIT_USAGE, "%s: '%s' is not a non-negative integer", opt,
		    s);
	return v;
}

/* Range-checked before narrowing, so 2^32 + 1 cannot become 1. */
static uint32_t opt_u32(const char *opt, const char *s, uint32_t max)
{
	uint64_t v = opt_u64(opt, s);

	if (v > max)
		die(EXIT_USAGE, "%s: %llu is above %u", opt,
		    (unsigned long long)v, max);
	return (uint32_t)v;
}

static double opt_double(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v) || v < 0)
		die(EXIT_USAGE, "%s: '%s' is not a non-negative number", opt,
		    s);
	return v;
}

enum {
	OPT_TRACE = 256, OPT_SYNTHETIC, OPT_WRITES, OPT_LGIB, OPT_LPAGES,
	OPT_OP, OPT_BPAGES, OPT_STREAMS, OPT_POLICY, OPT_GC, OPT_WARMUP,
	OPT_SEED, OPT_HOT_SPACE, OPT_HOT_WRIT, OPT_AS_CHUNK, OPT_AS_HALF,
	OPT_MAP_CLASSES, OPT_MAP_LIFE, OPT_MAP_FILES, OPT_GC_DEST,
	OPT_REPLICAS, OPT_REPLICA_HEAD, OPT_MAP_FILE_IDLE, OPT_REPLICA_FILES,
	OPT_MAP_FILE_STEP,
	OPT_MAP_NEW_BLOCKS,
	OPT_REPLICA_SEED,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "trace",		required_argument, NULL, OPT_TRACE },
	{ "synthetic",		required_argument, NULL, OPT_SYNTHETIC },
	{ "writes",		required_argument, NULL, OPT_WRITES },
	{ "logical-gib",	required_argument, NULL, OPT_LGIB },
	{ "logical-pages",	required_argument, NULL, OPT_LPAGES },
	{ "op",			required_argument, NULL, OPT_OP },
	{ "block-pages",	required_argument, NULL, OPT_BPAGES },
	{ "streams",		required_argument, NULL, OPT_STREAMS },
	{ "policy",		required_argument, NULL, OPT_POLICY },
	{ "gc",			required_argument, NULL, OPT_GC },
	{ "gc-dest",		required_argument, NULL, OPT_GC_DEST },
	{ "warmup-pages",	required_argument, NULL, OPT_WARMUP },
	{ "seed",		required_argument, NULL, OPT_SEED },
	{ "hot-space",		required_argument, NULL, OPT_HOT_SPACE },
	{ "hot-writes",		required_argument, NULL, OPT_HOT_WRIT },
	{ "as-chunk-kib",	required_argument, NULL, OPT_AS_CHUNK },
	{ "as-half-life",	required_argument, NULL, OPT_AS_HALF },
	{ "map-classes",	required_argument, NULL, OPT_MAP_CLASSES },
	{ "map-lifetimes",	required_argument, NULL, OPT_MAP_LIFE },
	{ "map-files",		required_argument, NULL, OPT_MAP_FILES },
	{ "map-file-idle",	required_argument, NULL, OPT_MAP_FILE_IDLE },
	{ "map-file-step",	required_argument, NULL, OPT_MAP_FILE_STEP },
	{ "map-new-blocks",	required_argument, NULL, OPT_MAP_NEW_BLOCKS },
	{ "replicas",		required_argument, NULL, OPT_REPLICAS },
	{ "replica-head",	required_argument, NULL, OPT_REPLICA_HEAD },
	{ "replica-files",	required_argument, NULL, OPT_REPLICA_FILES },
	{ "replica-seed",	required_argument, NULL, OPT_REPLICA_SEED },
	{ "help",		no_argument,       NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static void parse_named(const char *opt, const char *s,
			const char *const *names, int n, int *out)
{
	int i = name_index(s, names, n);

	if (i < 0)
		die(EXIT_USAGE, "%s: unknown name '%s'", opt, s);
	*out = i;
}

/* The series' dedicated class streams, in order (block/blk-io-hints.c). */
#define SERIES_CLASSES	"transaction,background,metadata,paging,realtime"

static void parse_map_classes(const char *list, struct map_spec *m)
{
	char buf[128], *tok, *save;
	int c;

	memset(m->rank, 0, sizeof(m->rank));
	m->nr_classes = 0;
	if (!strcmp(list, "none"))
		return;
	if (strlen(list) >= sizeof(buf))
		die(EXIT_USAGE, "--map-classes: list too long");
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		c = name_index(tok, class_names, NR_CLASSES);
		if (c < 0)
			die(EXIT_USAGE, "--map-classes: unknown class '%s'", tok);
		if (m->rank[c])
			die(EXIT_USAGE, "--map-classes: '%s' twice", tok);
		m->rank[c] = (uint8_t)++m->nr_classes;
	}
}

static void check_config(const struct config *cfg)
{
	if (!!cfg->trace == (cfg->synthetic != SYN_NONE))
		die(EXIT_USAGE, "give exactly one of --trace and --synthetic");
	if (cfg->streams < 1 || cfg->streams > MAX_STREAMS)
		die(EXIT_USAGE, "--streams must be 1..%d", MAX_STREAMS);
	if (cfg->block_pages < 1 || cfg->block_pages > (1u << 20))
		die(EXIT_USAGE, "--block-pages must be 1..%u", 1u << 20);
	if (cfg->op > 100)
		die(EXIT_USAGE, "--op is a fraction (0.28 = 28%%)");
	if (cfg->hot_space <= 0 || cfg->hot_space >= 1 ||
	    cfg->hot_writes > 1)
		die(EXIT_USAGE, "want 0 < --hot-space < 1, --hot-writes <= 1");
	if (cfg->replicas < 1)
		die(EXIT_USAGE, "--replicas must be at least 1");
	if (cfg->map.new_blocks &&
	    (cfg->policy != PL_MAP || cfg->map.files != FILES_TEMP_INT))
		die(EXIT_USAGE, "--map-new-blocks needs --policy map "
		    "--map-files temp-int");
	if ((cfg->replicas > 1 || cfg->replica_head || cfg->replica_seed) &&
	    (!cfg->trace || !cfg->logical_pages))
		die(EXIT_USAGE, "--replicas, --replica-head and --replica-seed "
		    "need --trace and the logical space of one copy "
		    "(--logical-pages)");
}

static void parse_options(int argc, char **argv, struct config *cfg)
{
	int c, i;

	*cfg = (struct config) {
		.op = 0.28, .block_pages = 256, .streams = 1,
		.policy = PL_SINGLE, .gc = GC_GREEDY,
		.gc_dest = GC_DEST_SHARED, .seed = 1,
		.hot_space = 0.2, .hot_writes = 0.8, .as_chunk_kib = 1024,
		.map = { .lifetimes = true, .files = FILES_HASH,
			 .file_idle = 65536, .file_step_log2 = 2 },
		.replicas = 1,
	};
	parse_map_classes(SERIES_CLASSES, &cfg->map);
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		const char *o = optarg;

		switch (c) {
		case OPT_TRACE:
			cfg->trace = o;
			break;
		case OPT_SYNTHETIC:
			parse_named("--synthetic", o, synthetic_names, 3, &i);
			if (i == SYN_NONE)
				die(EXIT_USAGE, "--synthetic: uniform|hotcold");
			cfg->synthetic = i;
			break;
		case OPT_WRITES:
			cfg->writes = opt_u64("--writes", o);
			break;
		case OPT_LGIB:
			cfg->logical_pages = (uint64_t)(1 << 18) *
				opt_double("--logical-gib", o);
			break;
		case OPT_LPAGES:
			cfg->logical_pages = opt_u64("--logical-pages", o);
			break;
		case OPT_OP:
			cfg->op = opt_double("--op", o);
			break;
		case OPT_BPAGES:
			cfg->block_pages = opt_u32("--block-pages", o,
						   1u << 20);
			break;
		case OPT_STREAMS:
			cfg->streams = opt_u32("--streams", o, MAX_STREAMS);
			break;
		case OPT_POLICY:
			parse_named("--policy", o, placement_names,
				    NR_PLACEMENTS, &i);
			cfg->policy = i;
			break;
		case OPT_GC:
			parse_named("--gc", o, gc_names, 2, &i);
			cfg->gc = i;
			break;
		case OPT_GC_DEST:
			parse_named("--gc-dest", o, gc_dest_names, 2, &i);
			cfg->gc_dest = i;
			break;
		case OPT_WARMUP:
			cfg->warmup_pages = opt_u64("--warmup-pages", o);
			break;
		case OPT_SEED:
			cfg->seed = opt_u64("--seed", o);
			break;
		case OPT_HOT_SPACE:
			cfg->hot_space = opt_double("--hot-space", o);
			break;
		case OPT_HOT_WRIT:
			cfg->hot_writes = opt_double("--hot-writes", o);
			break;
		case OPT_AS_CHUNK:
			cfg->as_chunk_kib = opt_u32("--as-chunk-kib", o,
						    1u << 30);
			break;
		case OPT_AS_HALF:
			cfg->as_half_life = opt_double("--as-half-life", o);
			break;
		case OPT_MAP_CLASSES:
			parse_map_classes(o, &cfg->map);
			break;
		case OPT_MAP_LIFE:
			cfg->map.lifetimes = opt_u32("--map-lifetimes", o, 1);
			break;
		case OPT_MAP_FILES:
			if (!strcmp(o, "0") || !strcmp(o, "1"))
				cfg->map.files = o[0] == '1' ? FILES_HASH :
							       FILES_NONE;
			else {
				parse_named("--map-files", o, map_files_names,
					    5, &i);
				cfg->map.files = i;
			}
			break;
		case OPT_MAP_FILE_IDLE:
			cfg->map.file_idle = opt_u64("--map-file-idle", o);
			break;
		case OPT_MAP_FILE_STEP: {
			uint32_t step = opt_u32("--map-file-step", o, 1u << 16);

			if (step < 2 || (step & (step - 1)))
				die(EXIT_USAGE,
				    "--map-file-step: '%s' is not a power of two from 2 to 65536",
				    o);
			cfg->map.file_step_log2 = __builtin_ctz(step);
			break;
		}
		case OPT_MAP_NEW_BLOCKS:
			cfg->map.new_blocks = opt_u32("--map-new-blocks", o, 1);
			break;
		case OPT_REPLICAS:
			cfg->replicas = opt_u32("--replicas", o, 1u << 16);
			break;
		case OPT_REPLICA_HEAD:
			cfg->replica_head = opt_u64("--replica-head", o);
			break;
		case OPT_REPLICA_SEED:
			cfg->replica_seed = opt_u64("--replica-seed", o);
			break;
		case OPT_REPLICA_FILES:
			parse_named("--replica-files", o, replica_files_names,
				    2, &i);
			cfg->replica_distinct_files = i;
			break;
		case OPT_HELP:
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	check_config(cfg);
}

/*
 * Physical blocks: logical * (1 + op), to the nearest whole block. The GC
 * reserve and the open blocks (one per host stream, plus one or one per
 * stream for GC) come out of this, as on a real device, so the spare must
 * at least cover them. GC_RESERVE still suffices with per-stream GC: a
 * victim holds one stream, so its pages go to one GC block and need at
 * most one new block, as with a shared one.
 */
static uint32_t physical_blocks(const struct config *cfg, uint32_t lpages)
{
	double pages = (double)lpages * (1.0 + cfg->op);
	double blocks = floor(pages / cfg->block_pages + 0.5);
	unsigned int gc_open = gc_slots(cfg->gc_dest, cfg->streams);
	double spare, need;

	if (blocks * cfg->block_pages >= (double)NO_PAGE)
		die(EXIT_USAGE, "physical space beyond 2^32 pages");
	spare = blocks * cfg->block_pages - lpages;
	need = (double)(cfg->streams + gc_open + GC_RESERVE) *
	       cfg->block_pages;
	if (spare <= need)
		die(EXIT_USAGE, "%.0f spare pages, not more than the %.0f that "
		    "%u host and %u GC open blocks (--gc-dest %s) and %d "
		    "reserve blocks take: raise --op or lower --streams",
		    spare, need, cfg->streams, gc_open,
		    gc_dest_names[cfg->gc_dest], GC_RESERVE);
	return (uint32_t)blocks;
}

static uint32_t logical_pages(const struct config *cfg)
{
	uint64_t lp = cfg->logical_pages;

	if (!lp)
		lp = 1u << 18;		/* 1 GiB */
	if (lp >= NO_PAGE)
		die(EXIT_USAGE, "logical space beyond 2^32 pages");
	return (uint32_t)lp;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct source src;
	struct placer pl = { 0 };
	struct ftl f;
	uint32_t lpages;
	const char *workload;

	parse_options(argc, argv, &cfg);

	if (cfg.trace) {
		trace_load(&src, cfg.trace, cfg.logical_pages);
		if (!cfg.logical_pages) {
			/* Just the pages the trace touches, in whole blocks. */
			uint64_t b = (src.max_page + cfg.block_pages - 1) /
				     cfg.block_pages;
			uint64_t lp = (b ? b : 1) * cfg.block_pages;

			if (lp >= NO_PAGE)
				die(EXIT_USAGE, "trace beyond 2^32 pages");
			lpages = (uint32_t)lp;
		} else {
			lpages = logical_pages(&cfg);
		}
		if (cfg.replicas > 1 || cfg.replica_head ||
		    cfg.replica_seed) {
			trace_replicate(&src, cfg.replicas, lpages,
					cfg.replica_head,
					cfg.replica_distinct_files,
					cfg.replica_seed);
			lpages *= cfg.replicas;
		}
		workload = strcmp(cfg.trace, "-") ? cfg.trace : "stdin";
	} else {
		lpages = logical_pages(&cfg);
		synthetic_init(&src, &cfg, lpages);
		workload = synthetic_names[cfg.synthetic];
	}

	pl.policy = cfg.policy;
	pl.n = cfg.streams;
	pl.map = &cfg.map;
	if (cfg.policy == PL_MAP && cfg.map.new_blocks)
		pl.lru.page_file = xcalloc(lpages, sizeof(*pl.lru.page_file));
	if (cfg.policy == PL_ORACLE)
		pl.oracle = oracle_bins(&src, lpages, cfg.streams, pl.edges);
	if (cfg.policy == PL_AUTOSTREAM)
		autostream_init(&pl.as, &cfg, lpages);

	ftl_init(&f, &cfg, lpages, physical_blocks(&cfg, lpages));
	replay(&f, &src, &pl);
	ftl_check(&f);
	report(&f, &cfg, &pl, workload);

	ftl_free(&f);
	if (cfg.policy == PL_AUTOSTREAM)
		autostream_free(&pl.as);
	free(pl.oracle);
	free(pl.lru.page_file);
	free(src.recs);
	return 0;
}
