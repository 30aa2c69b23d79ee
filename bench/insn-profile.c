// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin that counts the guest kernel's executed instructions
 * per translation block, so that two kernels running the same workload
 * can be compared function by function (bench/insn-profile.sh maps the
 * blocks to symbols). Only kernel addresses are counted.
 *
 * Output (file given by out=PATH), one line per block that ran:
 *   <start address, hex> <instructions in the block> <executions>
 *
 * Built against the qemu-plugin.h of the QEMU that loads it.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define KERNEL_START 0xffffffff80000000ULL

struct block {
	uint64_t pc;
	size_t insns;
	struct qemu_plugin_scoreboard *execs;
};

static GHashTable *blocks;	/* (pc, insns) -> struct block */
static GMutex lock;
static char *out_path;

static guint block_hash(gconstpointer p)
{
	const struct block *b = p;

	return g_int64_hash(&b->pc) ^ (guint)b->insns;
}

static gboolean block_equal(gconstpointer a, gconstpointer b)
{
	const struct block *x = a, *y = b;

	return x->pc == y->pc && x->insns == y->insns;
}

static void write_block(gpointer key, gpointer value, gpointer data)
{
	struct block *b = value;
	uint64_t n = qemu_plugin_u64_sum(qemu_plugin_scoreboard_u64(b->execs));

	if (n)
		fprintf(data, "%" PRIx64 " %zu %" PRIu64 "\n", b->pc, b->insns, n);
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");

	if (!f) {
		perror(out_path);
		return;
	}
	g_mutex_lock(&lock);
	g_hash_table_foreach(blocks, write_block, f);
	g_mutex_unlock(&lock);
	fclose(f);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block key = {
		.pc = qemu_plugin_tb_vaddr(tb),
		.insns = qemu_plugin_tb_n_insns(tb),
	};
	struct block *b;

	if (key.pc < KERNEL_START)
		return;
	g_mutex_lock(&lock);
	b = g_hash_table_lookup(blocks, &key);
	if (!b) {
		b = g_new0(struct block, 1);
		*b = key;
		b->execs = qemu_plugin_scoreboard_new(sizeof(uint64_t));
		g_hash_table_insert(blocks, b, b);
	}
	g_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb,
		QEMU_PLUGIN_INLINE_ADD_U64,
		qemu_plugin_scoreboard_u64(b->execs), 1);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = g_strdup(argv[i] + 4);
	}
	if (!out_path) {
		fprintf(stderr, "insn-profile: out=PATH is required\n");
		return -1;
	}
	blocks = g_hash_table_new(block_hash, block_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
