#!/bin/bash
# make test-debug's check that the debug options of the kernel under test
# were on for the whole run, as TAP (a kernel that silently lost one would
# report nothing and pass): for each of KASAN, PROVE_LOCKING and
# DEBUG_OBJECTS that CONFIG (the kernel's .config) has, what the guest
# (scripts/guest/run-selftests.sh) left in DIR must show it working:
#   KASAN          dmesg-boot.log: "KernelAddressSanitizer initialized"
#   PROVE_LOCKING  lockdep_stats (read after the last suite): debug_locks 1
#                  (a lockdep report or a full lockdep table turns it off)
#   DEBUG_OBJECTS  debug_objects_stats (after the last suite): warnings 0
#                  (it counts those past the five it prints, too)
# Reports themselves are scripts/kernel-log-check.sh's.
#
#   debug-kernel-check.sh CONFIG DIR
set -u
config=$1 dir=$2
checks=()
for o in KASAN PROVE_LOCKING DEBUG_OBJECTS; do
	grep -qx "CONFIG_$o=y" "$config" && checks+=("$o")
done
echo "TAP version 13"
echo "1..${#checks[@]}"
n=0
for o in "${checks[@]}"; do
	n=$((n + 1))
	case $o in
	KASAN)
		what="KASAN is on (boot log)" f=$dir/dmesg-boot.log
		grep -q 'KernelAddressSanitizer initialized' "$f" 2>/dev/null ;;
	PROVE_LOCKING)
		what="lockdep is still on after the last suite (debug_locks 1)" f=$dir/lockdep_stats
		[ "$(awk '$1 == "debug_locks:" { print $2 }' "$f" 2>/dev/null)" = 1 ] ;;
	DEBUG_OBJECTS)
		what="debugobjects counted no warning (warnings 0)" f=$dir/debug_objects_stats
		[ "$(awk -F: '$1 ~ /^warnings/ { print $2 + 0 }' "$f" 2>/dev/null)" = 0 ] ;;
	esac
	if [ $? = 0 ]; then
		echo "ok $n $what"
	else
		if [ ! -f "$f" ]; then echo "# $f was not written"
		elif [ "$o" = KASAN ]; then echo "# $f: no 'KernelAddressSanitizer initialized'"
		else grep -E '^ *(debug_locks|warnings)' "$f" | sed 's/^ */# /'; fi
		echo "not ok $n $what"
	fi
done
