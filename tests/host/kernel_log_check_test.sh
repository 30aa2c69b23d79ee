#!/bin/bash
# The kernel log check must name the suite a kernel report came in. Feeds
# scripts/kernel-log-check.sh crafted per-suite logs (one case per kind of
# report), then runs scripts/guest/run-selftests.sh on the host with a
# stand-in dmesg to check that each suite's messages land in its own log.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scripts=$here/../../scripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

# A clean boot with the 4 MiB buffer, two suites "a" and "b", the end.
clean() {
	rm -rf "$tmp/g"; mkdir -p "$tmp/g"
	printf 'Linux version 6.12.118+\nlog_buf_len: 4194304 bytes\nearly log buf free: 125000(95%%)\n' \
		> "$tmp/g/dmesg-boot.log"
	printf 'sd 1:0:0:0: [sdb] 1048576 512-byte logical blocks: (537 MB/512 MiB)\n' > "$tmp/g/dmesg-a.log"
	printf 'nvme nvme1: rejected a stream write; writing without streams\n' > "$tmp/g/dmesg-b.log"
	: > "$tmp/g/dmesg-end.log"
}

# check NAME EXPECTED_EXIT PATTERN: summarise the check's TAP, as
# run-tests.sh does; PATTERN must be in the summary.
check() {
	local name=$1 want_rc=$2 pattern=$3 out rc
	"$scripts/kernel-log-check.sh" "$tmp/g" a b > "$tmp/kernel.tap"
	out=$("$scripts/tap-summary.sh" "$tmp/kernel.tap" 2>&1); rc=$?
	[ "$rc" = "$want_rc" ] && grep -q -- "$pattern" <<<"$out"
	result "$name" $((! $?)) "$out" "exit $rc, wanted $want_rc and '$pattern'"
}

reports=(
	"WARNING: CPU: 1 PID: 77 at block/blk-mq.c:1234 blk_mq_start_request+0x1d/0x40"
	"BUG: KASAN: slab-use-after-free in bio_endio+0x2a/0x1c0"
	"BUG: sleeping function called from invalid context at block/blk-core.c:800"
	"kernel BUG at drivers/scsi/sd.c:1000!"
	"Oops: general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP"
	"UBSAN: shift-out-of-bounds in block/blk-io-hints.c:10:5"
	"Kernel panic - not syncing: Fatal exception"
	" Call Trace:"
	"WARNING: possible circular locking dependency detected"
	"WARNING: inconsistent lock state"
	"WARNING: possible recursive locking detected"
	"INFO: task kworker/0:1:12 blocked for more than 120 seconds."
	"rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
)
echo "TAP version 13"
echo "1..$((${#reports[@]} + 9))"

clean
check clean_logs_pass 0 "^PASS kernel: kernel log during b: no WARNING"

# Each kind of report, in suite b's log, fails naming b.
for r in "${reports[@]}"; do
	clean; printf 'sd 0:0:0:0: ok\n%s\nmore\n' "$r" >> "$tmp/g/dmesg-b.log"
	what=${r# }
	check "report_fails_naming_the_suite: ${what:0:40}" 1 "^FAIL kernel: kernel log during b: no WARNING"
done

clean; printf '%s\n' "${reports[0]}" >> "$tmp/g/dmesg-end.log"
check report_after_the_last_suite_fails 1 "^FAIL kernel: kernel log after the last suite"

clean; printf '%s\n' "${reports[0]}" >> "$tmp/g/dmesg-boot.log"
check report_at_boot_fails 1 "^FAIL kernel: kernel log at boot"

clean; rm "$tmp/g/dmesg-a.log"
check missing_part_fails 1 "dmesg-a.log was not written"

clean; printf 'dmesg: read kernel buffer failed: Operation not permitted\n' > "$tmp/g/dmesg-a.log"
check dmesg_error_fails 1 "dmesg: read kernel buffer failed"

clean; sed -i '/^log_buf_len/d' "$tmp/g/dmesg-boot.log"
check default_buffer_fails 1 "^FAIL kernel: kernel log buffer holds at least 4 MiB"

clean; sed -i 's/^log_buf_len: .*/log_buf_len: 1048576 bytes/' "$tmp/g/dmesg-boot.log"
check small_buffer_fails 1 "^FAIL kernel: kernel log buffer holds at least 4 MiB"

clean; head -c $((2 << 20)) /dev/zero | tr '\0' 'x' | fold -w 100 > "$tmp/g/dmesg-a.log"
check part_near_buffer_size_fails 1 "lines may have scrolled away"

# run-selftests.sh itself, with a stand-in dmesg whose "kernel log" is a
# file ("-c" empties it after reading; then a message that was pending,
# $FAKE_KLOG.late, arrives): each suite's messages must land in its own
# log, one that came after the last suite in the end log, and the check
# must name suite warns_b only.
mkdir -p "$tmp/bin" "$tmp/tests"
cat > "$tmp/bin/dmesg" <<'EOF'
#!/bin/bash
cat "$FAKE_KLOG"
for a; do [ "$a" = -c ] && : > "$FAKE_KLOG"; done
[ -f "$FAKE_KLOG.late" ] && mv "$FAKE_KLOG.late" "$FAKE_KLOG"
exit 0
EOF
cat > "$tmp/tests/quiet_a" <<'EOF'
#!/bin/bash
echo "sd 0:0:0:0: quiet_a wrote" >> "$FAKE_KLOG"
printf '1..1\nok 1 x\n'
EOF
cat > "$tmp/tests/warns_b" <<'EOF'
#!/bin/bash
echo "WARNING: CPU: 0 PID: 9 at block/blk-io-hints.c:42 f+0x1/0x2" >> "$FAKE_KLOG"
echo "sd 0:0:0:0: late after warns_b" > "$FAKE_KLOG.late"
printf '1..1\nok 1 y\n'
EOF
chmod +x "$tmp/bin/dmesg" "$tmp/tests/"*
export FAKE_KLOG=$tmp/klog
printf 'log_buf_len: 4194304 bytes\nKTAP version 1\n1..0\n' > "$FAKE_KLOG"
PATH=$tmp/bin:$PATH bash "$scripts/guest/run-selftests.sh" "$tmp/tests" "$tmp/out" > /dev/null 2>&1
out=$("$scripts/kernel-log-check.sh" "$tmp/out" quiet_a warns_b)
grep -qx 'ok 3 kernel log during quiet_a: .*' <<<"$out" &&
	grep -qx 'not ok 4 kernel log during warns_b: .*' <<<"$out" &&
	grep -q 'quiet_a wrote' "$tmp/out/dmesg-quiet_a.log" &&
	! grep -q 'quiet_a wrote' "$tmp/out/dmesg-warns_b.log" &&
	grep -q 'late after warns_b' "$tmp/out/dmesg-end.log" &&
	grep -q 'WARNING' "$tmp/out/dmesg.log"
result guest_keeps_one_log_per_suite $((! $?)) "$out"
[ $fails = 0 ]
