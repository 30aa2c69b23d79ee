# One TAP/KTAP stream -> result lines (see tap-summary.sh):
#   PASS|FAIL|SKIP SUITE: TEST[ # note]   a test's result
#   FAIL|SKIP SUITE # note                the stream as a whole (no ": ")
# KTAP nests subtests by indentation and prints a parent's result after its
# children: a result line is a leaf when no deeper result came since the
# previous one at its level. A leaf's name is its path: the "# Subtest:"
# names of the levels above it and its own, joined by "." (KUnit:
# suite.case.param).
# SKIP, XFAIL and TODO are reported as SKIP with the directive kept, so
# that the manifest check can hold each one against the skip allowlist;
# XPASS, TIMEOUT and ERROR are failures, as is a plan 1..0 (a suite that
# tested nothing).
function indent(s) { match(s, /^ */); return RLENGTH }
# A failure shows the test's own lines: kselftest_harness's from its
# "#  RUN" on, else those since the previous result, its stderr among them
# (the runners write both streams to the file). A long one shows its head,
# where the test set up, and its tail, where it failed.
function report(kind, what, i) {
	print kind " " what
	if (kind != "FAIL")
		return
	for (i = 0; i < ndiag; i++) {
		if (ndiag > 200 && i == 50) {
			print "      [... " ndiag - 200 " lines left out, see " FILENAME " ...]"
			i = ndiag - 150
		}
		print "      " diag[i]
	}
}
function whole(kind, note) {
	print kind " " suite " # " note
	if (kind == "FAIL") nfail++; else nskip++
}
# The subtest names of levels 1..d (level 0 is the file: the suite).
function path(d, e, p) {
	p = ""
	for (e = 1; e <= d; e++)
		if (e in sname)
			p = p sname[e] "."
	return p
}
# A result at depth d ends every deeper level: check their plans, forget
# them. Sets "children" (results below) and "empty" (a 1..0 plan below).
function close_below(d, e, what, n, i, lv) {
	children = 0; empty = 0; failbelow = 0
	n = 0
	for (e in opened)	# collect first: no deleting while iterating
		if (e + 0 > d)
			lv[++n] = e + 0
	for (i = 1; i <= n; i++) {
		e = lv[i]
		children += nres[e]
		if (failed[e])
			failbelow = 1
		if ((e in plan) && plan[e] == 0 && nres[e] == 0)
			empty = 1
		else if ((e in plan) && plan[e] != nres[e]) {
			what = path(e); sub(/\.$/, "", what)
			whole("FAIL", "subtest " what ": planned " plan[e] ", reported " nres[e])
			failbelow = 1
		}
		delete opened[e]; delete nres[e]; delete plan[e]
		delete sname[e]; delete failed[e]
	}
}
BEGIN { ndiag = 0; nfail = 0; nskip = 0 }
{
	line = $0
	sub(/\r$/, "", line)
	d = indent(line)
	body = substr(line, d + 1)
}
body ~ /^(K?TAP version|# Subtest: )/ {
	opened[d] = 1
	if (body ~ /^# Subtest: /)
		sname[d] = substr(body, 12)
	next
}
body ~ /^1\.\.[0-9]+/ {
	opened[d] = 1
	if (d in plan) { whole("FAIL", "a second plan: " body); next }
	plan[d] = substr(body, 4) + 0
	if (d == 0 && match(body, /#.*/)) {
		planwhy = substr(body, RSTART + 1); sub(/^ */, "", planwhy)
	}
	next
}
body ~ /^Bail out!/ { why = substr(body, 10); sub(/^ */, "", why); whole("FAIL", "bail out: " why); next }
body ~ /^(not )?ok( |$)/ {
	ok = body !~ /^not /
	rest = body; sub(/^(not )?ok */, "", rest)
	num = ""
	if (match(rest, /^[0-9]+/)) { num = substr(rest, 1, RLENGTH) + 0; rest = substr(rest, RLENGTH + 1) }
	sub(/^ *(- )?/, "", rest)
	# Name, then an optional "# DIRECTIVE reason" or "# comment".
	desc = rest; note = ""
	if (match(rest, /(^| )#/)) {
		desc = substr(rest, 1, RSTART - 1)
		note = substr(rest, RSTART); sub(/^ ?# */, "", note)
	}
	sub(/ +$/, "", desc)
	word = toupper(note); sub(/[^A-Z].*/, "", word)
	close_below(d)
	opened[d] = 1
	# TAP numbers each level 1, 2, 3...: a repeat hides a lost result.
	if (num != "" && num != nres[d] + 1)
		whole("FAIL", "result " nres[d] + 1 " at " path(d) desc " is numbered " num " (duplicate or out of order)")
	nres[d]++
	if (desc == "")
		desc = "test " (num != "" ? num : nres[d])
	what = suite ": " path(d) desc
	if (children == 0) {
		if (word ~ /^SKIP/ || word == "XFAIL" || word == "TODO") {
			print "SKIP " what " # " note; nskip++
		}
		else if (word == "XPASS" || word == "TIMEOUT" || word == "ERROR" || !ok) {
			report("FAIL", what (word != "" ? " # " note : "")); failed[d] = 1; nfail++
		} else if (empty)
			{ print "SKIP " what " # its subtest planned 1..0"; nskip++ }
		else
			report("PASS", what)
	} else if (!ok && !failbelow) {
		report("FAIL", what " # not ok, but none of its subtests failed"); failed[d] = 1; nfail++
	} else if (failbelow)
		failed[d] = 1
	ndiag = 0
	next
}
body ~ /^# +RUN / { ndiag = 0 }
{ diag[ndiag++] = body }
END {
	for (e in opened)
		if (e + 0 > 0 && (nres[e] > 0 || (e in sname))) {
			what = path(e + 0); sub(/\.$/, "", what)
			whole("FAIL", "subtest " what " has no result line of its own (output cut short?)")
			break
		}
	if (!(0 in plan) && nres[0] == 0)
		whole("FAIL", "no test result in its output")
	else if (!(0 in plan))
		whole("FAIL", "no plan (1..N) in its output")
	else if (plan[0] == 0 && nres[0] == 0)	# tested nothing: never a pass
		whole("FAIL", "plan 1..0" (planwhy != "" ? ": " planwhy : ""))
	else if (plan[0] != nres[0])
		whole("FAIL", "planned " plan[0] " tests, reported " nres[0])
	# 4 is KSFT_SKIP (ksft_exit_skip): the skip itself was reported above.
	if (rc != "" && rc != 0 && !nfail && !(rc == 4 && nskip))
		whole("FAIL", "exited with status " rc (rc == 124 ? " (timed out)" : ""))
}
