#!/bin/bash
# Check the series, printing TAP:
#  - every patch applies, in series order, to the pristine base;
#  - scripts/checkpatch.pl --strict reports nothing on any patch (but for
#    its "does MAINTAINERS need updating?" guess, replaced by the next check);
#  - every file the series adds is covered by the series' MAINTAINERS entry;
#  - patches/ and the commits base..HEAD of build/linux are the same;
#  - every patch file in patches/ is listed in series (and vice versa);
#  - struct bio, request, kiocb and inode are no bigger with the
#    series than in the base (pahole, same config and compiler flags: needs
#    the kernel built in build/obj).
# With --bisect, also build every patch in turn (slow; see below).
set -uo pipefail
. "$(dirname "$0")/lib.sh"

bisect=0
[ "${1:-}" = --bisect ] && bisect=1
[ -d "$TREE/.git" ] || die "no kernel tree: run 'make tree' first"

n=0 failed=0
result() {	# result OK|FAIL description [diagnostic file]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		[ -n "${3:-}" ] && sed 's/^/# /' "$3" | head -n 40
		echo "not ok $n $2"
	fi
}

mapfile -t files < <(series_files)
echo "TAP version 13"
echo "1..$(( ${#files[@]} * 2 + 7 + bisect * ${#files[@]} ))"
tmp=$(mktemp -d)
work=$tmp/wt
trap 'git -C "$TREE" worktree remove --force "$work" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# A scratch worktree at base: applying never touches build/linux itself.
git -C "$TREE" worktree add -q --detach "$work" base
layout_ok=1
"$ROOT/scripts/struct-layout.sh" "$work" "$tmp/base" > "$tmp/layout-base.log" 2>&1 ||
	layout_ok=0
applied=1
for f in "${files[@]}"; do
	p=$(basename "$f")
	if [ $applied = 1 ] && git -C "$work" am -q --keep-cr "$f" > "$tmp/am.log" 2>&1; then
		result OK "applies: $p"
	else
		[ $applied = 1 ] && git -C "$work" am --abort >/dev/null 2>&1
		[ $applied = 1 ] || echo "an earlier patch did not apply" > "$tmp/am.log"
		applied=0
		result FAIL "applies: $p" "$tmp/am.log"
	fi
done

# checkpatch's SPDX check runs Debian's python3 (it needs python3-ply).
# UNKNOWN_COMMIT_ID: the base is one commit without upstream history, so a
# Fixes: tag naming an upstream commit cannot be looked up here.
for f in "${files[@]}"; do
	p=$(basename "$f")
	( cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		--quiet --show-types --ignore FILE_PATH_CHANGES,UNKNOWN_COMMIT_ID "$f" ) > "$tmp/cp.log" 2>&1
	if [ $? = 0 ] && [ ! -s "$tmp/cp.log" ]; then
		result OK "checkpatch --strict: $p"
	else
		result FAIL "checkpatch --strict: $p" "$tmp/cp.log"
	fi
done

# checkpatch only guesses whether a new file needs MAINTAINERS; ask
# get_maintainer.pl, on the fully applied series, about each one instead.
: > "$tmp/unmaintained"
if [ $applied = 1 ]; then
	git -C "$work" diff --diff-filter=A --name-only base HEAD |
	while read -r new; do
		( cd "$work" && ./scripts/get_maintainer.pl --nogit --nogit-fallback \
			--norolestats -f "$new" ) 2>/dev/null |
			grep -q 'io-hints@example.org' || echo "$new: no MAINTAINERS entry of ours"
	done > "$tmp/unmaintained"
else
	echo "the series does not apply" > "$tmp/unmaintained"
fi
if [ ! -s "$tmp/unmaintained" ]; then
	result OK "every added file is in our MAINTAINERS entry"
else
	result FAIL "every added file is in our MAINTAINERS entry" "$tmp/unmaintained"
fi

# struct bio and struct request are allocated for every I/O, struct kiocb
# for every read and write, struct inode for every file: the series must
# fit in their holes.
for st in bio request kiocb inode; do
	if [ $layout_ok = 1 ] && [ $applied = 1 ] && [ ! -f "$tmp/series.sizes" ]; then
		"$ROOT/scripts/struct-layout.sh" "$work" "$tmp/series" \
			> "$tmp/layout-series.log" 2>&1 || layout_ok=0
	fi
	if [ $layout_ok = 0 ] || [ $applied = 0 ]; then
		cat "$tmp"/layout-*.log > "$tmp/layout.log" 2>/dev/null
		[ $applied = 1 ] || echo "the series does not apply" >> "$tmp/layout.log"
		result FAIL "struct $st does not grow" "$tmp/layout.log"
		continue
	fi
	b=$(awk -v s="$st" '$1 == s { print $2 }' "$tmp/base.sizes")
	a=$(awk -v s="$st" '$1 == s { print $2 }' "$tmp/series.sizes")
	if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -le "$b" ]; then
		result OK "struct $st does not grow ($b bytes in the base, $a with the series)"
	else
		diff -u <(sed -n "/^struct $st {/,/^};/p" "$tmp/base.txt") \
			<(sed -n "/^struct $st {/,/^};/p" "$tmp/series.txt") > "$tmp/layout.diff"
		result FAIL "struct $st does not grow ($b bytes in the base, $a with the series)" "$tmp/layout.diff"
	fi
done

if [ "$(tree_patch_ids)" = "$(series_patch_ids)" ]; then
	result OK "patches/ matches build/linux base..HEAD"
else
	echo "run 'make export' after committing in build/linux" > "$tmp/ids.log"
	result FAIL "patches/ matches build/linux base..HEAD" "$tmp/ids.log"
fi

( cd "$PATCHES" && ls [0-9]*.patch 2>/dev/null | grep -v '^0000-cover-letter' ) > "$tmp/on-disk"
series_files | xargs -r -n1 basename > "$tmp/listed"
if diff -u "$tmp/listed" "$tmp/on-disk" > "$tmp/diff.log"; then
	result OK "series lists exactly the patch files"
else
	result FAIL "series lists exactly the patch files" "$tmp/diff.log"
fi

# --bisect: build every patch in turn. A patch to fs.h or blk_types.h
# recompiles most of the kernel (about 11 minutes on 2 cores), so the
# results are kept in tests/bisect-builds.tsv, one line per kernel tree
# (the git tree ID after the patch: the same base and patches give the
# same ID anywhere) and kconfig fragment (its sha1), and committed. A
# tree that built with this fragment is not built again,
# and a change to one patch leaves the results of the patches before it
# standing. A patch that touches only the selftests, Documentation or
# MAINTAINERS leaves the kernel's sources as they were: the selftests are
# built at it instead. BISECT_BUDGET=seconds starts no new build after
# that long; the patches left are reported as skipped, to be built by the
# next run.
if [ $bisect = 1 ]; then
	record=$ROOT/tests/bisect-builds.tsv
	[ -f "$record" ] ||
		printf 'tree\tconfig\tpatch\twhat\tseconds\tdate\n' > "$record"
	config=$(sha1sum < "$ROOT/kernel/streams.config" | cut -d' ' -f1)
	bwork=$BUILD/bisect-wt	# a fixed path, so that ccache and make reuse work
	git -C "$TREE" worktree remove --force "$bwork" >/dev/null 2>&1
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$bwork" base
	start=$SECONDS budget=${BISECT_BUDGET:-0} broken=
	for f in "${files[@]}"; do
		p=$(basename "$f")
		# After a patch that does not apply nothing can be built, but
		# each patch still gets its line, so the plan's count holds.
		if [ -n "$broken" ]; then
			result FAIL "builds: $p (not built: $broken does not apply)"
			continue
		fi
		if ! git -C "$bwork" am -q --keep-cr "$f" > "$tmp/am.log" 2>&1; then
			result FAIL "builds: $p (does not apply)" "$tmp/am.log"
			broken=$p
			continue
		fi
		tree=$(git -C "$bwork" rev-parse 'HEAD^{tree}')
		what=kernel
		git -C "$bwork" diff --quiet HEAD~1 HEAD -- . ':!tools/testing/selftests' \
			':!Documentation' ':!MAINTAINERS' && what=selftests
		[ $what = selftests ] &&
			[ ! -f "$bwork/tools/testing/selftests/streams/Makefile" ] && what=nothing
		seen=$(awk -F'\t' -v t="$tree" -v c="$config" \
			'$1 == t && $2 == c { print $4 " built in " $5 " s on " $6 }' "$record" | tail -n 1)
		if [ -n "$seen" ]; then
			echo "ok $((n + 1)) builds: $p ($seen)"
			n=$((n + 1))
			continue
		fi
		if [ "$budget" -gt 0 ] && [ $((SECONDS - start)) -ge "$budget" ]; then
			echo "ok $((n + 1)) builds: $p # SKIP not built yet: BISECT_BUDGET=$budget spent"
			n=$((n + 1))
			continue
		fi
		t0=$SECONDS
		if [ $what = nothing ]; then
			: # documentation alone: the sources are the previous patch's
		elif [ $what = kernel ]; then
			fragment_for_tree "$bwork" "$ROOT/kernel/streams.config" "$tmp/frag.config"
			TREE=$bwork FRAGMENT=$tmp/frag.config bash "$ROOT/scripts/build-kernel.sh" \
				"$BUILD/obj-bisect" > "$tmp/build.log" 2>&1
		else
			TREE=$bwork OBJ=$BUILD/obj-bisect SELFTESTS=$BUILD/obj-bisect/selftests \
				bash "$ROOT/scripts/build-selftests.sh" > "$tmp/build.log" 2>&1
		fi
		if [ $? = 0 ]; then
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$tree" "$config" "$p" \
				"$what" $((SECONDS - t0)) "$(date -u +%F)" >> "$record"
			result OK "builds: $p ($what, $((SECONDS - t0)) s)"
		else
			tail -n 30 "$tmp/build.log" > "$tmp/build.tail"
			result FAIL "builds: $p ($what)" "$tmp/build.tail"
		fi
	done
	git -C "$TREE" worktree remove --force "$bwork" >/dev/null 2>&1
fi
[ $failed = 0 ]
