#!/bin/bash
# The FTL simulator (sim/ftl-sim) must reproduce known write amplification
# before its numbers for the placement policies can be believed: checks it
# against the closed-form greedy-GC model, against cases whose answer is
# exact, and checks trace parsing, discard handling and speed. TAP output.
set -u
here=$(cd "$(dirname "$0")" && pwd)
simdir=$here/../../sim
sim=$simdir/ftl-sim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/host/lib/tap.sh
. "$here/lib/tap.sh"

echo "TAP version 13"
plan=37
echo "1..$plan"

# key FILE KEY: the value of one "key value" line of a report
key() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# awk_true EXPR: exit status of a floating-point comparison
awk_true() { awk "BEGIN { exit !($1) }"; }

if ! build_log=$(make -s -C "$simdir" 2>&1) || [ -n "$build_log" ] ||
   [ ! -x "$sim" ]; then
	# Nothing else can run; fail every planned check rather than skip.
	result build 0 "make -C sim failed or warned:" "$build_log"
	while [ $n -lt $plan ]; do result "not run (no simulator)" 0; done
	exit 1
fi
result "build without warnings" 1

# Closed form for uniform random 4 KiB writes with greedy GC, in the limit
# of large erase blocks: the valid fraction u of a victim block solves
#     (1 + op) * (1 - u) = -ln(u),    WAF = 1 / (1 - u)
# (a block's pages survive the (1+op)(1-u)*logical host writes between its
# programming and its collection with probability e^-that). Desnoyers,
# "Analytic modeling of SSD write performance", SYSTOR 2012, shows greedy
# converges to this for large blocks; Xiang and Kurkoski, "An improved
# analytic expression for write amplification in NAND flash", ICNC 2012
# (arXiv:1110.4245), give the same as WAF = a / (a + W0(-a e^-a)), a = 1+op,
# and report 2.36 at op 0.3 against 2.35 simulated. It is ~2.48 at op 0.28
# and ~7.82 at op 0.07. (The simpler (1+op)/(2op) of Hu et al./Agarwal and
# Marrow underestimates: 2.29 and 7.64.) Solved here by bisection.
expected_waf() {
	awk -v op="$1" 'BEGIN {
		a = 1 + op; lo = 1e-12; hi = 1 - 1e-12
		for (i = 0; i < 200; i++) {
			m = (lo + hi) / 2
			if (-log(m) - a * (1 - m) > 0) lo = m; else hi = m
		}
		printf "%.3f\n", 1 / (1 - lo)
	}'
}

# 1 GiB logical, 256-page (1 MiB) blocks: blocks large enough for the
# large-block limit, and enough of them that the GC reserve and open blocks
# (~4 blocks) eat only ~0.4% of the spare. Fill, 4x logical random writes of
# warm-up, then 5x logical measured: steady state, ~0.3 s per run.
lp=262144
for op in 0.28 0.07; do
	"$sim" --synthetic uniform --logical-pages $lp --block-pages 256 \
		--op $op --writes $((9 * lp)) --warmup-pages $((5 * lp)) \
		> "$tmp/uniform-$op" 2>&1
	got=$(key "$tmp/uniform-$op" waf)
	want=$(expected_waf $op)
	awk_true "\"$got\" != \"\" && $got > $want * 0.97 &&
		  $got < $want * 1.03"
	result "uniform greedy WAF at op $op: $got vs closed form $want (3%)" \
		$((! $?)) "$(cat "$tmp/uniform-$op")"
done

# No GC pressure: fill plus 20% more writes fit in 128% of the logical space.
"$sim" --synthetic uniform --logical-pages 16384 --block-pages 64 --op 0.28 \
	--writes 3276 > "$tmp/nogc" 2>&1
[ "$(key "$tmp/nogc" waf)" = 1.000 ] &&
[ "$(key "$tmp/nogc" gc_victims)" = 0 ] &&
[ "$(key "$tmp/nogc" media_pages)" = "$(key "$tmp/nogc" host_pages)" ] &&
[ "$(key "$tmp/nogc" host_pages)" = 19660 ]
result "no GC pressure: WAF exactly 1.000" $((! $?)) "$(cat "$tmp/nogc")"

# Discard: 64 MiB filled, then four 16 MiB regions rewritten in turn, each in
# random order (measured after the fill). Without discards the old copies
# die one by one while GC has to move them; discarding the region first
# frees whole blocks at once.
gen_region_trace() {
	awk -v trim="$1" 'BEGIN {
		srand(7); pages = 16384; region = 4096
		for (p = 0; p < pages; p += 64)
			printf "W %d 512 data 0 0 0\n", p * 8
		for (r = 0; r < 12; r++) {
			base = (r % 4) * region
			if (trim)
				printf "D %d %d\n", base * 8, region * 8
			for (i = 0; i < region; i++)
				perm[i] = i
			for (i = region - 1; i > 0; i--) {
				j = int(rand() * (i + 1))
				t = perm[i]; perm[i] = perm[j]; perm[j] = t
			}
			for (i = 0; i < region; i++)
				printf "W %d 8 data 0 0 0\n",
				       (base + perm[i]) * 8
		}
	}'
}
gen_region_trace 0 > "$tmp/rewrite.trace"
gen_region_trace 1 > "$tmp/rewrite-trim.trace"
for t in rewrite rewrite-trim; do
	"$sim" --trace "$tmp/$t.trace" --logical-pages 16384 --block-pages 64 \
		--op 0.07 --warmup-pages 16384 > "$tmp/$t" 2>&1
done
plain=$(key "$tmp/rewrite" waf)
trim=$(key "$tmp/rewrite-trim" waf)
awk_true "\"$plain\" != \"\" && \"$trim\" != \"\" && $trim < $plain * 0.9 &&
	  $(key "$tmp/rewrite-trim" discarded_pages) > 0"
result "discard before rewrite lowers WAF: $trim vs $plain" $((! $?)) \
	"$(cat "$tmp/rewrite")" "$(cat "$tmp/rewrite-trim")"

# Hot/cold (80% of writes to 20% of the space), 7% OP.
hotcold() {
	local lp=65536
	"$sim" --synthetic hotcold --logical-pages $lp --block-pages 64 \
		--op 0.07 --writes $((12 * lp)) --warmup-pages $((5 * lp)) "$@"
}
hotcold --policy single --streams 1 > "$tmp/hc-single1" 2>&1
hotcold --policy single --streams 4 > "$tmp/hc-single4" 2>&1
hotcold --policy oracle --streams 4 > "$tmp/hc-oracle4" 2>&1
single=$(key "$tmp/hc-single1" waf)
oracle=$(key "$tmp/hc-oracle4" waf)
awk_true "\"$oracle\" != \"\" && \"$single\" != \"\" && $oracle < $single * 0.9"
result "hotcold: oracle/4 streams $oracle below single $single" $((! $?)) \
	"$(cat "$tmp/hc-single1")" "$(cat "$tmp/hc-oracle4")"

# Streams the policy never uses must change nothing.
grep -v -e '^streams ' -e '^stream_pages ' "$tmp/hc-single1" > "$tmp/a"
grep -v -e '^streams ' -e '^stream_pages ' "$tmp/hc-single4" > "$tmp/b"
[ -s "$tmp/a" ] && [ -n "$(key "$tmp/a" waf)" ] && cmp -s "$tmp/a" "$tmp/b"
result "single: 4 streams report the same as 1" $((! $?)) \
	"$(diff "$tmp/a" "$tmp/b")"

# Cost-benefit should beat greedy when data is skewed (LFS's result).
hotcold --policy single --gc cost-benefit > "$tmp/hc-cb" 2>&1
cb=$(key "$tmp/hc-cb" waf)
awk_true "\"$cb\" != \"\" && $cb < $single"
result "hotcold: cost-benefit GC $cb below greedy $single" $((! $?)) \
	"$(cat "$tmp/hc-cb")"

# AutoStream's frequency/recency counts must find the hot 20% of the LBAs
# (80% of the writes) and put them above stream 1, the cold rest below.
hotcold --policy autostream --streams 4 > "$tmp/hc-auto" 2>&1
split=$(key "$tmp/hc-auto" stream_pages)
awk -v s="$split" 'BEGIN {
	n = split(s, p, ","); if (n != 4) exit 1
	t = p[1] + p[2] + p[3] + p[4]
	exit !(t > 0 && (p[3] + p[4]) / t > 0.7 && (p[3] + p[4]) / t < 0.9 &&
	       p[1] / t > 0.1)
}'
result "autostream: hot chunks on high streams ($split)" $((! $?)) \
	"$(cat "$tmp/hc-auto")"

# ... and must not take one sequential 4 KiB stream for a hot chunk: each
# request continues the previous one, so all of them stay on its stream.
awk 'BEGIN { for (p = 0; p < 8192; p++) printf "W %d 8 data 0 0 0\n", p * 8 }' \
	> "$tmp/seq.trace"
"$sim" --trace "$tmp/seq.trace" --logical-pages 16384 --block-pages 64 \
	--policy autostream --streams 4 > "$tmp/seq" 2>&1
split=$(key "$tmp/seq" stream_pages)
[ "$split" = 8192,0,0,0 ]
result "autostream: a sequential stream stays on one stream ($split)" \
	$((! $?)) "$(cat "$tmp/seq")"

# Malformed lines: exit 2 and the line number, whatever is wrong.
bad_ok=1 bad_diag=()
while IFS= read -r bad; do
	printf '# comment\nW 0 8 data 0 0 0\n%s\n' "$bad" > "$tmp/bad.trace"
	"$sim" --trace "$tmp/bad.trace" > /dev/null 2> "$tmp/bad.err"
	rc=$?
	if [ $rc != 2 ] || ! grep -q 'line 3' "$tmp/bad.err"; then
		bad_ok=0
		bad_diag+=("'$bad': exit $rc: $(cat "$tmp/bad.err")")
	fi
done <<'EOF'
W 0 8 bogus 0 0 1
W 0 8 data 6 0 1
W 0 8 data 0 0
W -8 8 data 0 0 1
W 0 8 data 0 xyz 1
W 0 0 data 0 0 1
D 0
X 0 8
W 0 8 data 0 0 1 extra
EOF
result "malformed trace lines fail with exit 2 naming the line" $bad_ok \
	"${bad_diag[@]}"

# Sectors to pages: a write covers every page it touches, a discard only the
# pages it covers whole: sectors 4..11 are pages 0 and 1, 1..8 cover no
# page whole, 8..19 only page 1.
printf '%s\n' 'W 4 8 data 0 0 0' 'W 0 1 data 0 0 0' 'W 16 8 data 0 0 0' \
	'D 1 8' 'D 8 12' > "$tmp/sectors.trace"
"$sim" --trace "$tmp/sectors.trace" --logical-pages 16384 --block-pages 64 \
	> "$tmp/sectors" 2>&1
[ "$(key "$tmp/sectors" host_pages)" = 4 ] &&
[ "$(key "$tmp/sectors" discarded_pages)" = 1 ]
result "partial pages: writes round out, discards round in" $((! $?)) \
	"$(cat "$tmp/sectors")"

# Two files written interleaved, 4 KiB at a time: a log (stream 1, long
# lifetime hint) that is overwritten only when it wraps after 28 rounds, and
# a scratch file (stream 2, short hint) rewritten every round. Kept apart,
# every block dies whole; mixed, GC must move the log out of each block.
awk 'BEGIN {
	print "# interleaved long-lived log and short-lived scratch file"
	logp = 14336; scratch = 14336
	for (r = 0; r < 100; r++)
		for (i = 0; i < 512; i++) {
			printf "W %d 8 data 4 a 1\n", ((r * 512 + i) % logp) * 8
			printf "W %d 8 data 2 0x1b 2\n\n", (scratch + i) * 8
		}
}' > "$tmp/two-files.trace"
two_files() {
	"$sim" --trace "$tmp/two-files.trace" --logical-pages 16384 \
		--block-pages 64 --op 0.07 "$@"
}
two_files --policy kernel --streams 2 > "$tmp/tf-kernel" 2>&1
two_files --policy single --streams 2 > "$tmp/tf-single" 2>&1
two_files --policy lifetime --streams 4 > "$tmp/tf-lifetime" 2>&1
kern=$(key "$tmp/tf-kernel" waf)
sing=$(key "$tmp/tf-single" waf)
life=$(key "$tmp/tf-lifetime" waf)
awk_true "\"$kern\" != \"\" && \"$sing\" != \"\" && $kern <= 1.02 &&
	  $sing >= $kern + 0.2"
result "kernel policy follows the stream field: $kern vs single $sing" \
	$((! $?)) "$(cat "$tmp/tf-kernel")" "$(cat "$tmp/tf-single")"
awk_true "\"$life\" != \"\" && $life <= 1.02"
result "lifetime policy follows the hint field: $life" $((! $?)) \
	"$(cat "$tmp/tf-lifetime")"

# The map policy with the series' settings must put every write where the
# kernel's table does (Documentation/block/io-hints.rst): these streams
# are what blk_write_stream_map() gives for 4, 8 and 16 streams.
map_trace() {	# N: one write per case, the stream column for N streams
	local s
	case $1 in
	4) s=(1 3 3 2 3 3 3 4 4 3 4 4) ;;
	8) s=(1 3 4 2 5 5 6 7 8 5 8 8) ;;
	16) s=(1 3 4 2 5 6 7 8 9 12 10 11) ;;
	esac
	printf '%s\n' "W 0 8 transaction 0 0 ${s[0]}" \
		"W 8 8 metadata 0 0 ${s[1]}" "W 16 8 paging 0 0 ${s[2]}" \
		"W 24 8 background 0 0 ${s[3]}" "W 32 8 realtime 0 0 ${s[4]}" \
		"W 40 8 data 2 0 ${s[5]}" "W 48 8 data 3 0 ${s[6]}" \
		"W 56 8 data 4 0 ${s[7]}" "W 64 8 data 5 0 ${s[8]}" \
		"W 72 8 data 0 10 ${s[9]}" "W 80 8 data 1 7 ${s[10]}" \
		"W 88 8 data 0 0x2b ${s[11]}"
}
map_ok=1 map_diag=()
for ns in 4 8 16; do
	map_trace $ns > "$tmp/map-$ns.trace"
	"$sim" --trace "$tmp/map-$ns.trace" --logical-pages 16384 \
		--block-pages 64 --streams $ns --policy map > "$tmp/map-$ns" 2>&1
	if [ "$(key "$tmp/map-$ns" map_differs_from_kernel)" != 0 ]; then
		map_ok=0
		map_diag+=("$ns streams: $(cat "$tmp/map-$ns")")
	fi
done
result "map: the series' settings reproduce the kernel's table (4, 8, 16)" \
	$map_ok "${map_diag[@]}"

# ... and the comparison notices a different mapping: without class
# streams, transaction and metadata writes move (and more).
"$sim" --trace "$tmp/map-8.trace" --logical-pages 16384 --block-pages 64 \
	--streams 8 --policy map --map-classes none --map-files 0 \
	> "$tmp/map-none" 2>&1
differs=$(key "$tmp/map-none" map_differs_from_kernel)
[ -n "$differs" ] && [ "$differs" -ge 4 ]
result "map: a variant without class streams differs ($differs writes)" \
	$((! $?)) "$(cat "$tmp/map-none")"

"$sim" --trace "$tmp/map-8.trace" --policy map \
	--map-classes transaction,bogus > /dev/null 2> "$tmp/map-bad.err"
rc=$?
[ $rc = 2 ] && grep -q "unknown class 'bogus'" "$tmp/map-bad.err"
result "map: an unknown class in --map-classes is a usage error" $((! $?)) \
	"exit $rc: $(cat "$tmp/map-bad.err")"

# --map-files lru: files are given the file stream that has gone longest
# without a write, not their ID modulo the pool. With 8 streams the pool is
# streams 5-8 (after four class streams); IDs 0x1, 0x5 and 0x9 all fold
# onto stream 6 by value. Written in turn, 8 pages each, twice: hash puts
# all 48 pages on stream 6, lru gives each file its own stream, the pool's
# last three (ties go to the highest: 16 pages each on streams 8, 7, 6).
for r in 1 2; do
	printf '%s\n' "W 0 64 data 0 1 6" "W 64 64 data 0 5 6" "W 128 64 data 0 9 6"
done > "$tmp/lru.trace"
for f in hash lru; do
	"$sim" --trace "$tmp/lru.trace" --logical-pages 1024 --block-pages 16 \
		--streams 8 --policy map --map-files $f > "$tmp/lru-$f" 2>&1
done
[ "$(key "$tmp/lru-hash" stream_pages)" = 0,0,0,0,0,48,0,0 ] &&
[ "$(key "$tmp/lru-lru" stream_pages)" = 0,0,0,0,0,16,16,16 ]
result "map: --map-files lru gives files that fold together streams of their own" \
	$((! $?)) "$(cat "$tmp/lru-hash" "$tmp/lru-lru")"

# ... and a file that has been idle for longer than --map-file-idle is new
# again: it takes the stream least recently written, not its old one. 0x1
# (8 pages on stream 8), then 0x5 (stream 7), 0x9 (stream 6) and 0x1
# again 16 pages later: with an idle limit of 8 pages, 0x1 is new and
# takes stream 5, untouched so far; with the default it stays on 8.
printf '%s\n' "W 0 64 data 0 1 6" "W 64 64 data 0 5 6" "W 128 64 data 0 9 6" \
	"W 0 64 data 0 1 6" > "$tmp/idle.trace"
"$sim" --trace "$tmp/idle.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files lru --map-file-idle 8 \
	> "$tmp/idle-8" 2>&1
"$sim" --trace "$tmp/idle.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files lru > "$tmp/idle-def" 2>&1
"$sim" --trace "$tmp/idle.trace" --policy map --map-files lfu \
	> /dev/null 2> "$tmp/lru-bad.err"
rc=$?
[ "$(key "$tmp/idle-8" stream_pages)" = 0,0,0,0,8,8,8,8 ] &&
[ "$(key "$tmp/idle-def" stream_pages)" = 0,0,0,0,0,8,8,16 ] && [ $rc = 2 ]
result "map: an idle file takes the least recently used stream again" \
	$((! $?)) "$(cat "$tmp/idle-8" "$tmp/idle-def")" \
	"exit $rc: $(cat "$tmp/lru-bad.err")"

# --map-files idle: only a stream nobody wrote for --map-file-idle pages
# is free; a new file that finds none joins the last new file. Files 0x1-
# 0x4 (8 pages each) take streams 8, 7, 6, 5, all never written before;
# 0x5 and 0x6 come 32 and 40 pages in, within the limit of 64, so they
# join 0x4 on stream 5 (24 pages there); lru deals them out to the least
# recently written, 8 and 7 (16 pages each).
printf 'W %d 64 data 0 %d 6\n' 0 1 64 2 128 3 192 4 256 5 320 6 > "$tmp/join.trace"
for f in idle lru; do
	"$sim" --trace "$tmp/join.trace" --logical-pages 1024 --block-pages 16 \
		--streams 8 --policy map --map-files $f --map-file-idle 64 \
		> "$tmp/join-$f" 2>&1
done
[ "$(key "$tmp/join-idle" stream_pages)" = 0,0,0,0,24,8,8,8 ] &&
[ "$(key "$tmp/join-lru" stream_pages)" = 0,0,0,0,8,8,16,16 ]
result "map: --map-files idle keeps a burst of new files on one stream" \
	$((! $?)) "$(cat "$tmp/join-idle" "$tmp/join-lru")"

# --map-files temp-int: pool stream floor(log4(hottest / count)) by each
# file's count of write requests (no decay to speak of with a half-life of
# 10^9 pages). File 0x1 writes 80 one-page requests, always the hottest:
# stream 5. Then 0x2 once (80/1: log4 3.2, stream 8) and 0x3 four times
# (80/1, 80/2, 80/3, 80/4: log4 3.2, 2.7, 2.4, 2.2: streams 8, 7, 7, 7).
awk 'BEGIN { for (i = 0; i < 80; i++) printf "W %d 8 data 0 1 6\n", i * 8
	print "W 640 8 data 0 2 6"
	for (i = 0; i < 4; i++) printf "W %d 8 data 0 3 6\n", 648 + i * 8 }' \
	> "$tmp/temp.trace"
# temp, the same rule in floating point, is gone: asking for it is a usage
# error.
"$sim" --trace "$tmp/temp.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files temp-int \
	--map-file-idle 1000000000 > "$tmp/temp-int" 2>&1
"$sim" --trace "$tmp/temp.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files temp > "$tmp/temp" 2>&1
rc=$?
[ "$(key "$tmp/temp-int" stream_pages)" = 0,0,0,0,80,0,3,2 ] && [ $rc = 2 ]
result "map: --map-files temp-int puts files by how often they write" \
	$((! $?)) "$(cat "$tmp/temp-int")" "exit $rc: $(cat "$tmp/temp")"

# --map-file-step 16: a stream further for each sixteenfold drop, so the
# same trace puts 0x2 (80/1: log16 1.6) and 0x3 (log16 1.6 to 1.1) on the
# second stream of the pool, 6; a step that is not a power of two is a
# usage error.
"$sim" --trace "$tmp/temp.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files temp-int --map-file-step 16 \
	--map-file-idle 1000000000 > "$tmp/step16" 2>&1
"$sim" --trace "$tmp/temp.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files temp-int --map-file-step 12 \
	> "$tmp/step12" 2>&1
rc=$?
[ "$(key "$tmp/step16" stream_pages)" = 0,0,0,0,80,5,0,0 ] && [ $rc = 2 ] &&
	grep -q 'not a power of two' "$tmp/step12"
result "map: --map-file-step sets the drop in rate from one stream to the next" \
	$((! $?)) "$(cat "$tmp/step16")" "exit $rc: $(cat "$tmp/step12")"

# --map-new-blocks 1 (with temp-int): a write none of whose pages its file
# wrote last goes to the middle of the files range (pool 5-8: 7) and does
# not count. File 0x1 writes pages 0-79 once: new, 80 pages on 7, though
# it is the only file. Its 4 overwrites of page 0 count alone: the
# hottest, stream 5. 0x2 then writes page 0, last 0x1's: new, 7; after a
# discard of it, again new, 7; once more, an overwrite at a quarter of
# 0x1's count: floor(log4(4)) = 1, stream 6. Without temp-int it is a
# usage error.
awk 'BEGIN { for (i = 0; i < 80; i++) printf "W %d 8 data 0 1 6\n", i * 8
	for (i = 0; i < 4; i++) print "W 0 8 data 0 1 6"
	print "W 0 8 data 0 2 6"; print "D 0 8"
	print "W 0 8 data 0 2 6"; print "W 0 8 data 0 2 6" }' > "$tmp/new.trace"
"$sim" --trace "$tmp/new.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files temp-int --map-new-blocks 1 \
	--map-file-idle 1000000000 > "$tmp/new-blocks" 2>&1
"$sim" --trace "$tmp/new.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files hash --map-new-blocks 1 \
	> "$tmp/new-hash" 2>&1
rc=$?
[ "$(key "$tmp/new-blocks" stream_pages)" = 0,0,0,0,4,1,82,0 ] &&
	[ $rc = 2 ] && grep -q 'needs --policy map --map-files temp-int' \
	"$tmp/new-hash"
result "map: --map-new-blocks puts writes to new blocks in the middle, uncounted" \
	$((! $?)) "$(cat "$tmp/new-blocks")" "exit $rc: $(cat "$tmp/new-hash")"

# fstream (FStream, FAST 2018): one stream per kind of file-system
# structure, told apart by class alone: data on 0, journal (transaction) on
# 1, metadata on 2, whatever the hint, file or kernel stream says; with two
# streams journal and metadata share the last. One page of data, two of
# journal, three of metadata, four of swap (data to FStream), each
# carrying a hint, a file and a kernel stream that the policy must ignore.
printf '%s\n' "W 0 8 data 5 a 3" "W 8 16 transaction 2 0 1" \
	"W 24 24 metadata 0 0 2" "W 48 32 paging 3 b 4" > "$tmp/fstream.trace"
for k in 4 2; do
	"$sim" --trace "$tmp/fstream.trace" --logical-pages 1024 \
		--block-pages 16 --policy fstream --streams $k \
		> "$tmp/fstream-$k" 2>&1
done
[ "$(key "$tmp/fstream-4" stream_pages)" = 5,2,3,0 ] &&
[ "$(key "$tmp/fstream-2" stream_pages)" = 5,5 ]
result "fstream: journal, metadata and the rest on streams of their own" \
	$((! $?)) "$(cat "$tmp/fstream-4" "$tmp/fstream-2")"

# --replicas K: K copies of a trace, each in a logical space of its own,
# records round-robin, copy k starting k/K of the way past the head. Two
# copies of a one-record head (stream 1) and four writes of 1, 2, 3 and 4
# pages on streams 1-4: after the heads (2 pages) copy 0 writes s1 while
# copy 1 starts at s3 (4 pages more); counting from there, s2 and s4 twice,
# s1 and s3 once: 1,4,3,8 pages on streams 0-3, and 512 logical pages.
printf '%s\n' "W 0 8 data 0 0 1" "W 8 8 data 0 0 1" "W 16 16 data 0 0 2" \
	"W 32 24 data 0 0 3" "W 56 32 data 0 0 4" > "$tmp/rep.trace"
"$sim" --trace "$tmp/rep.trace" --logical-pages 256 --block-pages 16 \
	--policy kernel --streams 4 --replicas 2 --replica-head 1 \
	--warmup-pages 6 > "$tmp/rep" 2>&1
"$sim" --trace "$tmp/rep.trace" --replicas 2 > "$tmp/rep-bad" 2>&1
rc=$?
[ "$(key "$tmp/rep" stream_pages)" = 1,4,3,8 ] &&
[ "$(key "$tmp/rep" logical_pages)" = 512 ] && [ $rc = 2 ]
result "replicas: copy k starts k/K of the way past the head" $((! $?)) \
	"$(cat "$tmp/rep")" "exit $rc: $(cat "$tmp/rep-bad")"

# --replica-files distinct: each copy past the first stands for another
# instance, with file IDs of its own. One file (ID 0x1) written twice, two
# copies, lru: with shared IDs both copies are one file on one stream (32
# pages on stream 8); with distinct IDs they are two files on two streams.
printf '%s\n' "W 0 64 data 0 1 6" "W 64 64 data 0 1 6" > "$tmp/rf.trace"
for m in shared distinct; do
	"$sim" --trace "$tmp/rf.trace" --logical-pages 1024 --block-pages 16 \
		--streams 8 --policy map --map-files lru --replicas 2 \
		--replica-files $m > "$tmp/rf-$m" 2>&1
done
[ "$(key "$tmp/rf-shared" stream_pages)" = 0,0,0,0,0,0,0,32 ] &&
[ "$(key "$tmp/rf-distinct" stream_pages)" = 0,0,0,0,0,0,16,16 ]
result "replicas: --replica-files distinct gives each copy its own file IDs" \
	$((! $?)) "$(cat "$tmp/rf-shared" "$tmp/rf-distinct")"

# --replica-seed S: another draw of the copies' starting points and of
# their distinct file IDs. 0 is the arrangement above. Over seeds 1-8 the
# two copies of rep.trace must not always start where they do without a
# seed, every draw must replay the same pages, and hash folding of the
# copy's distinct ID must land on more than one stream. Without --trace
# the option is a usage error.
"$sim" --trace "$tmp/rep.trace" --logical-pages 256 --block-pages 16 \
	--policy kernel --streams 4 --replicas 2 --replica-head 1 \
	--warmup-pages 6 --replica-seed 0 > "$tmp/seed-0" 2>&1
: > "$tmp/seeds"
for s in 1 2 3 4 5 6 7 8; do
	"$sim" --trace "$tmp/rep.trace" --logical-pages 256 --block-pages 16 \
		--policy kernel --streams 4 --replicas 2 --replica-head 1 \
		--warmup-pages 6 --replica-seed $s > "$tmp/seed-$s" 2>&1
	"$sim" --trace "$tmp/rf.trace" --logical-pages 1024 --block-pages 16 \
		--streams 8 --policy map --map-files hash --replicas 2 \
		--replica-files distinct --replica-seed $s > "$tmp/seed-id" 2>&1
	echo "$s $(key "$tmp/seed-$s" host_pages)" \
		"$(key "$tmp/seed-$s" replica_seed)" \
		"$(key "$tmp/seed-id" stream_pages)" \
		"$(key "$tmp/seed-$s" stream_pages)" >> "$tmp/seeds"
done
"$sim" --synthetic uniform --writes 10 --replica-seed 1 > "$tmp/seed-bad" 2>&1
rc=$?
# Seed 0 keeps the distinct IDs of the earlier tables too: hash folding of
# rf.trace's copies, as the simulator before --replica-seed gave it.
"$sim" --trace "$tmp/rf.trace" --logical-pages 1024 --block-pages 16 \
	--streams 8 --policy map --map-files hash --replicas 2 \
	--replica-files distinct --replica-seed 0 > "$tmp/seed-0-id" 2>&1
cmp -s "$tmp/seed-0" "$tmp/rep" &&
[ "$(key "$tmp/seed-0-id" stream_pages)" = 0,0,0,0,16,16,0,0 ] &&
awk -v rep="$(key "$tmp/rep" stream_pages)" '
	$2 != 16 || $3 != $1 { bad = 1 }
	{ ids[$4] = 1; if ($5 != rep) moved = 1 }
	END { n = 0; for (i in ids) n++; exit bad || n < 2 || !moved }' \
	"$tmp/seeds" &&
[ $rc = 2 ]
result "replicas: --replica-seed draws other starting points and file IDs" \
	$((! $?)) "$(cat "$tmp/seeds")" "exit $rc: $(cat "$tmp/seed-bad")"

# Replication must not change what it scales: 8 copies of uniform random
# writes (a 64 MiB fill, then 5 times the space) on 8 times the space give
# the WAF of one copy, within 3%.
awk 'BEGIN { srand(7); lp = 16384
	for (p = 0; p < lp; p += 64) printf "W %d 512 data 0 0 0\n", p * 8
	for (i = 0; i < 5 * lp; i++)
		printf "W %d 8 data 0 0 0\n", int(rand() * lp) * 8 }' > "$tmp/uni.trace"
for k in 1 8; do
	"$sim" --trace "$tmp/uni.trace" --logical-pages 16384 --block-pages 64 \
		--op 0.28 --replicas $k --replica-head 256 \
		--warmup-pages $((k * 16384 * 2)) > "$tmp/uni-$k" 2>&1
done
one=$(key "$tmp/uni-1" waf) eight=$(key "$tmp/uni-8" waf)
awk_true "\"$one\" != \"\" && \"$eight\" != \"\" &&
	  $eight >= $one * 0.97 && $eight <= $one * 1.03 &&
	  $(key "$tmp/uni-8" host_pages) == 8 * $(key "$tmp/uni-1" host_pages)"
result "replicas: 8 copies of uniform writes keep the WAF of one ($eight vs $one)" \
	$((! $?)) "$(cat "$tmp/uni-1" "$tmp/uni-8")"

# In lockstep (every record in the head) K copies in blocks K times as large
# hold K repeats of each small block, so they must give the WAF of one copy
# on a trace that is far from uniform: the two files above, single stream,
# 8 copies in 512-page blocks against one in 64-page blocks (within 1%).
"$sim" --trace "$tmp/two-files.trace" --logical-pages 16384 --op 0.07 \
	--block-pages 512 --replicas 8 \
	--replica-head "$(grep -c "^W" "$tmp/two-files.trace")" > "$tmp/tf-lockstep" 2>&1
lock=$(key "$tmp/tf-lockstep" waf)
awk_true "\"$lock\" != \"\" && $lock >= $sing * 0.99 && $lock <= $sing * 1.01"
result "replicas: 8 copies in lockstep and 8x blocks keep the WAF of one ($lock vs $sing)" \
	$((! $?)) "$(cat "$tmp/tf-lockstep")"

# --gc-dest shared is what the simulator always did: same report, byte for
# byte, as a run without the option, where streams are used (oracle/2).
hotcold --policy oracle --streams 2 > "$tmp/hc-oracle2" 2>&1
hotcold --policy oracle --streams 2 --gc-dest shared > "$tmp/hc-oracle2-sh" 2>&1
[ -n "$(key "$tmp/hc-oracle2" waf)" ] &&
[ "$(key "$tmp/hc-oracle2" gc_dest)" = shared ] &&
cmp -s "$tmp/hc-oracle2" "$tmp/hc-oracle2-sh"
result "gc-dest shared reports what the default does" $((! $?)) \
	"$(diff "$tmp/hc-oracle2" "$tmp/hc-oracle2-sh")"

# With one stream there is one GC block either way: per-stream GC must
# place every page where shared GC does, and charge all of it to stream 0.
hotcold --policy single --streams 1 --gc-dest per-stream > "$tmp/hc-ps1" 2>&1
grep -v -e '^gc_dest ' -e '^stream_gc_pages ' -e '^stream_blocks ' \
	"$tmp/hc-ps1" > "$tmp/a"
grep -v '^gc_dest ' "$tmp/hc-single1" > "$tmp/b"
[ -n "$(key "$tmp/a" waf)" ] && cmp -s "$tmp/a" "$tmp/b" &&
[ "$(key "$tmp/hc-ps1" stream_gc_pages)" = "$(key "$tmp/a" gc_pages)" ]
result "gc-dest per-stream with one stream reports what shared does" \
	$((! $?)) "$(diff "$tmp/a" "$tmp/b")" "$(cat "$tmp/hc-ps1")"

# Shared GC writes the oracle's short- and long-lived survivors into one
# block; per-stream GC keeps them apart, which must not do worse.
hotcold --policy oracle --streams 2 --gc-dest per-stream \
	> "$tmp/hc-oracle2-ps" 2>&1
ps=$(key "$tmp/hc-oracle2-ps" waf)
sh=$(key "$tmp/hc-oracle2" waf)
awk_true "\"$ps\" != \"\" && \"$sh\" != \"\" && $ps <= $sh"
result "hotcold oracle/2: per-stream GC WAF $ps <= shared $sh" $((! $?)) \
	"$(cat "$tmp/hc-oracle2")" "$(cat "$tmp/hc-oracle2-ps")"

# Hot/cold split perfectly by LBA (hot 20% of the space, 80% of the writes,
# on stream 1; cold on stream 2) with per-stream GC: each stream is then a
# device of its own under uniform random writes, its WAF 1/(1 - u_i) with
# (1 + op_i)(1 - u_i) = -ln u_i. Greedy picks the emptiest block of either
# stream, so in steady state both streams' victims are equally full
# (u_hot = u_cold): the spare splits in proportion to the space, op_i =
# op, and every stream, and the whole, has the uniform WAF, whatever the
# skew (sim/README.md). 256 MiB, 1 MiB blocks, op 0.28 (uniform here is
# within 1% of the limit), fill + 3x warm-up + 5x measured. The whole must
# be within 3%, as for uniform; shared GC gives +5.3% here, the optimal
# spare split would give -25%. Each stream within 5%: a stream is a
# smaller device with its own two open blocks (the hot one has ~15 spare
# blocks); the optimal split would put them at 1.46 and 3.49 (-41%, +41%).
awk -v w=$((8 * 65536)) 'BEGIN {
	srand(3); lp = 65536; hot = int(lp / 5)
	for (p = 0; p < lp; p += n) {
		n = p < hot && p + 256 > hot ? hot - p : 256
		n = p + n > lp ? lp - p : n
		printf "W %d %d data 0 0 %d\n", p * 8, n * 8, p < hot ? 1 : 2
	}
	for (i = 0; i < w; i++)
		if (rand() < 0.8)
			printf "W %d 8 data 0 0 1\n", int(rand() * hot) * 8
		else
			printf "W %d 8 data 0 0 2\n",
			       (hot + int(rand() * (lp - hot))) * 8
}' > "$tmp/split.trace"
"$sim" --trace "$tmp/split.trace" --logical-pages 65536 --block-pages 256 \
	--op 0.28 --policy kernel --streams 2 --gc-dest per-stream \
	--warmup-pages $((3 * 65536)) > "$tmp/split" 2>&1
got=$(key "$tmp/split" waf)
want=$(expected_waf 0.28)
awk_true "\"$got\" != \"\" && $got > $want * 0.97 && $got < $want * 1.03"
result "hotcold split, per-stream GC: WAF $got vs closed form $want (3%)" \
	$((! $?)) "$(cat "$tmp/split")"
read -r hot cold < <(awk -F'[ ,]' '$1 == "stream_pages" { h1 = $2; h2 = $3 }
	$1 == "stream_gc_pages" { g1 = $2; g2 = $3 }
	END { if (h1 && h2) printf "%.3f %.3f\n", 1 + g1 / h1, 1 + g2 / h2 }' \
	"$tmp/split")
awk_true "\"$hot\" != \"\" && \"$cold\" != \"\" &&
	  $hot > $want * 0.95 && $hot < $want * 1.05 &&
	  $cold > $want * 0.95 && $cold < $want * 1.05"
result "hotcold split, per-stream GC: hot $hot, cold $cold near $want (5%)" \
	$((! $?)) "$(cat "$tmp/split")"

# The split of the spare that minimises the WAF instead, 0.8 * WAF(op_hot)
# + 0.2 * WAF(op_cold) with 0.2 (1 + op_hot) + 0.8 (1 + op_cold) = 1 + op,
# by golden-section search: 1.866 at op 0.28 (op_hot 0.687, op_cold
# 0.178). No victim choice that keeps the streams apart does better in the
# large-block limit; cost-benefit, which spends spare where data dies
# young, should come close (measured 1.897, op_hot 0.680). Not below 3%
# under it (the small-block gain seen above), not above 5%.
optimal_split_waf() {
	awk -v op="$1" -v hs=0.2 -v hw=0.8 '
	function u_of(a,   lo, hi, m, i) {
		lo = 1e-12; hi = 1 - 1e-12
		for (i = 0; i < 100; i++) {
			m = (lo + hi) / 2
			if (-log(m) - a * (1 - m) > 0) lo = m; else hi = m
		}
		return lo
	}
	function waf(ah,   ac) {
		ac = (1 + op - hs * ah) / (1 - hs)
		return hw / (1 - u_of(ah)) + (1 - hw) / (1 - u_of(ac))
	}
	BEGIN {
		g = (sqrt(5) - 1) / 2
		lo = 1 + 1e-9; hi = 1 + op / hs - 1e-9
		for (i = 0; i < 60; i++) {
			x1 = hi - g * (hi - lo); x2 = lo + g * (hi - lo)
			if (waf(x1) < waf(x2)) hi = x2; else lo = x1
		}
		printf "%.3f\n", waf((lo + hi) / 2)
	}'
}
"$sim" --trace "$tmp/split.trace" --logical-pages 65536 --block-pages 256 \
	--op 0.28 --policy kernel --streams 2 --gc-dest per-stream \
	--gc cost-benefit --warmup-pages $((3 * 65536)) > "$tmp/split-cb" 2>&1
got=$(key "$tmp/split-cb" waf)
want=$(optimal_split_waf 0.28)
awk_true "\"$got\" != \"\" && $got > $want * 0.97 && $got < $want * 1.05"
result \
	"hotcold split, per-stream cost-benefit GC: WAF $got vs optimal split $want" \
	$((! $?)) "$(cat "$tmp/split-cb")"

# Per-stream GC opens a GC block per stream out of the spare: the 18 spare
# blocks here hold 8 host, 1 GC and 2 reserve blocks with room for data,
# but not 8 + 8 + 2, so per-stream is refused as a usage error, shared is
# not.
two_files --policy kernel --streams 8 --gc-dest shared > /dev/null 2>&1
rc_sh=$?
two_files --policy kernel --streams 8 --gc-dest per-stream > /dev/null \
	2> "$tmp/ps-spare.err"
rc=$?
[ $rc_sh = 0 ] && [ $rc = 2 ] && grep -q 'per-stream' "$tmp/ps-spare.err"
result "gc-dest per-stream: a spare without a GC block per stream is refused" \
	$((! $?)) "shared: exit $rc_sh" \
	"per-stream: exit $rc: $(cat "$tmp/ps-spare.err")"

# Speed: 1 GiB filled, then 4 M random writes at 28% OP (~10 M media
# writes in all). Wall clock, process start included.
t0=$(date +%s%N)
"$sim" --synthetic uniform --logical-pages $lp --block-pages 256 --op 0.28 \
	--writes 4000000 > "$tmp/speed" 2>&1
t1=$(date +%s%N)
host=$(key "$tmp/speed" host_pages)
rate=$(awk -v h="${host:-0}" -v ns=$((t1 - t0)) \
	'BEGIN { printf "%.0f", h / (ns / 1e9) }')
ms=$(((t1 - t0) / 1000000))
echo "# speed: ${host:-0} host page writes in $ms ms: $rate/s"
[ -n "$host" ] && [ "$rate" -ge 1000000 ]
result "at least 1 M page writes per second ($rate/s)" $((! $?)) \
	"$(cat "$tmp/speed")"

[ $fails = 0 ]
