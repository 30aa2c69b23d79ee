#!/bin/bash
# The kernel log check of a test boot, as TAP. The guest
# (scripts/guest/run-selftests.sh) reads and clears the kernel log after
# boot, after each suite and once more at the end, into DIR/dmesg-boot.log,
# DIR/dmesg-SUITE.log, DIR/dmesg-end.log: each part must exist and hold no
# kernel warning, BUG (a sleeping function called from invalid context
# among them), Oops, KASAN/UBSAN, lockdep or debugobjects report, and the
# not ok line names the part (the suite) it came in. The boot log must show
# the log buffer that vm.sh asks for (log_buf_len=4M), so that nothing
# scrolls away between two reads.
#
#   kernel-log-check.sh DIR SUITE...
set -u
dir=$1; shift
want=$((4 << 20))	# vm.sh: log_buf_len=4M
# WARNING: also opens lockdep's reports; they are named anyway, as is what
# prints no "WARNING:" (kernel BUG at, hung tasks, RCU stalls).
pattern='WARNING:|BUG:|kernel BUG at|Oops|KASAN:|UBSAN:|Kernel panic|Call Trace:'
pattern+='|general protection fault|possible circular locking|possible recursive locking'
pattern+='|inconsistent lock state|suspicious RCU usage|blocked for more than'
pattern+='|rcu: INFO: .* detected stalls'
# The debug kernel's (make test-debug): debugobjects, DEBUG_LIST, lockdep
# giving up (a table full) or a report of its that prints no WARNING:.
pattern+='|ODEBUG:|list_(add|del) corruption|turning off the locking correctness validator'
pattern+='|INFO: trying to register non-static key'
parts=(boot "$@" end)
n=0
result() {	# result 0|1 DESCRIPTION: the diagnostics, if any, came before
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; fi
}

echo "TAP version 13"
echo "1..$((${#parts[@]} + 1))"

# setup_log_buf() says when log_buf_len= took effect: "printk: log buffer
# data + meta data: N + M = T bytes" in 7.3 ("log_buf_len: N bytes" before).
size=$(sed -n -e 's/^\(printk: \)\{0,1\}log_buf_len: \([0-9]*\) bytes$/\2/p' \
	-e 's/^printk: log buffer data + meta data: \([0-9]*\) + .*$/\1/p' \
	"$dir/dmesg-boot.log" 2>/dev/null | tail -n 1)
if [ -n "$size" ] && [ "$size" -ge "$want" ]; then
	result 0 "kernel log buffer holds at least $((want >> 20)) MiB"
else
	echo "# the boot log says log_buf_len: ${size:-nothing} (is log_buf_len= on vm.sh's kernel command line?)"
	result 1 "kernel log buffer holds at least $((want >> 20)) MiB"
fi
size=${size:-131072}	# CONFIG_LOG_BUF_SHIFT=17 otherwise

for p in "${parts[@]}"; do
	f=$dir/dmesg-$p.log
	case $p in
	boot) when="at boot" ;;
	end) when="after the last suite" ;;
	*) when="during $p" ;;
	esac
	what="kernel log $when: no WARNING, BUG, Oops, KASAN, UBSAN or lockdep report"
	if [ ! -f "$f" ]; then
		echo "# $f was not written"
		result 1 "$what"
	elif grep -q '^dmesg: ' "$f"; then
		# dmesg's own error (no permission, ...) instead of the log.
		grep '^dmesg: ' "$f" | head -n 5 | sed 's/^/# /'
		result 1 "$what"
	elif [ "$(wc -c < "$f")" -ge $((size / 2)) ]; then
		# Near the buffer's size, the oldest lines may be gone.
		echo "# $f: $(wc -c < "$f") bytes of a $size byte buffer: lines may have scrolled away"
		result 1 "$what"
	elif grep -Eq "$pattern" "$f"; then
		grep -E -A 4 "$pattern" "$f" | head -n 40 | sed 's/^/# /'
		result 1 "$what"
	else
		result 0 "$what"
	fi
done
