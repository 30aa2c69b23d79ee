# I/O hints and file stream IDs: build, boot and test the patched kernel.
# See README.md. Every target installs what it is missing (as root).

SHELL := /bin/bash
S := scripts

.PHONY: all run test deps tree kernel selftests export check check-bisect \
	vm-shell bench bench-quick bench-device \
	clean help qemu test-qemu-fdp test-debug

all: help

help:
	@echo "make run           build, boot, run the demonstration workload"
	@echo "make test          build, boot, run every test; ends 'N passed, N failed'"
	@echo "make test T=SUITE[:TEST]  only that kselftest (or kunit, qemu_fdp), or one test of it"
	@echo "make test-debug    the guest tests on a KASAN + lockdep kernel (build/obj-debug)"
	@echo "make deps          install the Debian packages the project needs"
	@echo "make tree          create/refresh build/linux (base + patches/)"
	@echo "make kernel        build bzImage in build/obj"
	@echo "make selftests     build the streams kselftests in build/selftests"
	@echo "make export        export build/linux base..HEAD to patches/"
	@echo "make check         check the series (applies, checkpatch, matches tree)"
	@echo "make check-bisect  ... and build the kernel at every patch (slow)"
	@echo "make vm-shell CMD='...'  run a command in the test VM"
	@echo "make bench         the series' cost per I/O against the base (null_blk, QEMU -icount), build/bench"
	@echo "make bench-quick   the same with one boot per kernel: a check that it runs, no spread"
	@echo "make bench-device  WAF on FEMU's FDP SSD: base, series with placement off, series; every workload, OP 7 and 28 %, 3 runs (FEMU_SRC=...)"
	@echo "make qemu          build QEMU 10 (FDP) from trixie's source into build/qemu, once"
	@echo "make test-qemu-fdp the kernel against QEMU's own FDP device (TAP in build/qemu-fdp/out)"

deps:
	@$(S)/deps.sh

tree: deps
	@$(S)/tree.sh

kernel: tree
	@$(S)/build-kernel.sh

selftests: tree
	@$(S)/build-selftests.sh

run: kernel selftests
	@$(S)/vm.sh --out build/vm/run --timeout 600 -- $(CURDIR)/$(S)/guest/demo.sh; \
	rc=$$?; cat build/vm/run/output.log; exit $$rc

test: kernel selftests
	@T='$(T)' $(S)/run-tests.sh

# Builds its own kernel, selftests and results (build/*-debug).
test-debug: tree
	@$(S)/test-debug.sh

export:
	@$(S)/export.sh

check: kernel
	@$(S)/check-series.sh

check-bisect: kernel
	@$(S)/check-series.sh --bisect

vm-shell: kernel
	@$(S)/vm.sh --out build/vm/shell -- bash -c '$(CMD)'; \
	rc=$$?; cat build/vm/shell/output.log; exit $$rc

# What the series costs an I/O (bench/README.md). Each prints its wall time
# at the end.
bench: kernel
	@start=$$(date +%s); \
	RUNTIME=2 $(S)/bench-overhead.sh 2 && bench/overhead-plot.sh && \
	echo "make bench: wall time $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s"

bench-quick: kernel
	@start=$$(date +%s); \
	RUNTIME=2 $(S)/bench-overhead.sh 1 && \
	echo "make bench-quick: wall time $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s"

# Write amplification on FEMU's FDP SSD (bench/femu/; README
# "Benchmarking a multi-stream SSD"). Needs FEMU_SRC the first time (a FEMU
# checkout or git mirror) and both kernels (build/obj: make kernel;
# build/obj-base: make bench). First a smoke run (where each stream's
# writes land, on the series), then every cell RUNS times
# (bench/femu/matrix.sh: KERNELS x OP x WORKLOADS, a namespace of NS_MB;
# WORKLOADS empty: all), then the tables and plots in build/femu/results,
# and the simulator against the device (bench/femu/sim-compare.sh, on the
# series' traced first runs).
# DEV=/dev/nvmeXnY: the same workloads on a real FDP SSD, on the running
# kernel, WIPE=yes required, KERNEL_LABEL the kernel's column (default uname
# -r; bench/femu/real.sh).
KERNELS ?= base series-off series
OP ?= 7 28
RUNS ?= 3
WORKLOADS ?=
NS_MB ?= 109
bench-device:
	@start=$$(date +%s); \
	if [ -n "$(DEV)" ]; then \
		WIPE=$(WIPE) bench/femu/real.sh -r $(RUNS) -w "$(WORKLOADS)" \
			-o build/femu/real.tsv $(DEV) && \
		bench/femu/summary.sh build/femu/real.tsv build/femu/real-results || exit; \
	else \
		bench/femu/run.sh --kernel series --workload probe --out build/femu/runs/smoke && \
		grep -q 'write_stream=1 (ok) *ruh0+8MiB' build/femu/runs/smoke/probe.txt || \
			{ echo "make bench-device: the smoke run's stream 1 did not reach handle 0" >&2; exit 1; }; \
		bench/femu/matrix.sh -t -r $(RUNS) -k "$(KERNELS)" -p "$(OP)" -w "$(WORKLOADS)" \
			-n $(NS_MB) -o build/femu/device.tsv && \
		bench/femu/summary.sh build/femu/device.tsv build/femu/results && \
		BASE_TSV=build/femu/device.tsv bench/femu/sim-compare.sh \
			build/femu/runs/matrix/series-*-run1 > build/femu/results/sim-vs-device.tsv && \
		cat build/femu/results/device.md build/femu/results/sim-vs-device.tsv || exit; \
	fi; \
	echo "make bench-device: wall time $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s"

qemu: deps
	@$(S)/qemu.sh >/dev/null

test-qemu-fdp: kernel qemu
	@$(S)/test-qemu-fdp.sh

clean:
	rm -rf build/obj build/obj-bisect build/selftests build/vm build/test-results \
		build/obj-debug build/selftests-debug build/test-results-debug
