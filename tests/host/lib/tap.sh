# shellcheck shell=bash
# TAP for the host tests (tests/host/*_test.sh): source it, print the
# plan, call result once per check, and end with "[ $fails = 0 ]".
n=0 fails=0

# result NAME OK [DIAGNOSTIC...]: one TAP line; a failure's diagnostics
# come first, each line prefixed with "# " so that the summary shows them.
result() {
	local name=$1 ok=$2
	shift 2
	n=$((n + 1))
	if [ "$ok" = 1 ]; then
		echo "ok $n $name"
	else
		fails=$((fails + 1))
		for d in "$@"; do sed 's/^/# /' <<<"$d"; done
		echo "not ok $n $name"
	fi
}
