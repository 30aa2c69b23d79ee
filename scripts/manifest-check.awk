# Hold a run's result lines (tap-summary.sh's) against what it should have
# reported; print TAP with one "not ok" per thing wrong (manifest-check.sh).
# Inputs, in order; part= is set on the command line before each:
#   manifest  SUITE<TAB>TEST, or SUITE<TAB>PREFIX*<TAB>COUNT: exactly COUNT
#             tests whose names begin with PREFIX; COUNT "patches" is the
#             number of patches in patches/series (variable npatches)
#   allow     SUITE<TAB>TEST<TAB>REASON
#   results   PASS|FAIL|SKIP SUITE: TEST[ # note], or FAIL SUITE # note for
#             a whole file (tap-summary.awk fails a plan 1..0)
function bad(s, what) { nprob[s]++; prob[s, nprob[s]] = what }
# n is stepped before the assignment: awks differ in whether a subscript's
# ++n happens before or after the right-hand side is evaluated.
function out(ok, what) { n++; tap[n] = (ok ? "ok " : "not ok ") n " " what }
function listed_as(s, t, i) {	# the manifest entry covering s/t, or ""
	if ((s, t) in listed)
		return t
	for (i = 1; i <= npat[s]; i++)
		if (index(t, pat[s, i]) == 1)
			return pat[s, i] "*"
	return ""
}
BEGIN { FS = "\t"; n = 0; nsuites = 0; nent = 0; nres = 0 }
part != "results" && /^[ \t]*(#|$)/ { next }
part == "manifest" {
	# A prefix without a count would let a run lose all but one of its
	# tests; a count on a plain name means nothing.
	if (NF < 2 || NF > 3 || $1 == "" || $2 == "" || ($2 ~ /\*$/) != (NF == 3) ||
	    (NF == 3 && $3 !~ /^([1-9][0-9]*|patches)$/)) {
		bad("", mname ":" FNR ": not SUITE<TAB>TEST or SUITE<TAB>PREFIX*<TAB>COUNT: " $0); next
	}
	if ($3 == "patches" && npatches !~ /^[1-9][0-9]*$/) {
		bad("", mname ":" FNR ": count \"patches\", but " sname " lists none"); next
	}
	if (($1, $2) in listed) { bad("", mname ":" FNR ": listed twice: " $1 ": " $2); next }
	listed[$1, $2] = 1
	if (!($1 in nlisted)) { suites[++nsuites] = $1; nlisted[$1] = 0; npat[$1] = 0 }
	nlisted[$1]++
	ent_s[++nent] = $1; ent_t[nent] = $2
	if ($2 ~ /\*$/) {
		pat[$1, ++npat[$1]] = substr($2, 1, length($2) - 1)
		count[$1, $2] = $3 == "patches" ? npatches : $3
		why[$1, $2] = $3 == "patches" ? " (the patches in " sname ")" : ""
	}
	next
}
part == "allow" {
	if (NF != 3 || $1 == "" || $2 == "" || $3 ~ /^ *$/)
		bad("", aname ":" FNR ": not SUITE<TAB>TEST<TAB>REASON (a reason is required): " $0)
	else
		allowed[$1, $2] = $3
	next
}
# results
!/^(PASS|FAIL|SKIP) / { next }
{
	kind = substr($0, 1, 4); rest = substr($0, 6); note = ""
	if (!match(rest, /^[^ :]+: /)) {
		# A whole file (its failure is counted already): the suite
		# reported, so an unlisted one is still caught below.
		s = rest; sub(/ .*/, "", s)
		if (s != "manifest" && !(s in nlisted) && !(s in unknown))
			unknown[s] = 0
		next
	}
	s = substr(rest, 1, RLENGTH - 2); t = substr(rest, RLENGTH + 1)
	if (i = index(t, " # ")) { note = substr(t, i + 3); t = substr(t, 1, i - 1) }
	if (s == "manifest")
		next
	if (!((s, t) in seen)) { res_s[++nres] = s; res_t[nres] = t; res_k[nres] = kind; got[s]++ }
	seen[s, t]++
	if (kind == "SKIP") {
		if ((s, t) in allowed)
			used[s, t] = 1
		else
			bad(s, s ": " t ": skipped (" note "), and " aname " does not list it")
	}
}
END {
	# What each suite reported that the manifest does not know of.
	for (i = 1; i <= nres; i++) {
		s = res_s[i]; t = res_t[i]
		if (!(s in nlisted)) { unknown[s]++; continue }
		e = listed_as(s, t)
		# Only a pass: a failure counts already, a skip is held against
		# the allowlist (a KTAP subtest that planned 1..0 reports its
		# parent, which the manifest does not list).
		if (e == "" && res_k[i] == "PASS")
			bad(s, s ": " t ": reported, but not in " mname " (add it)")
		else
			hits[s, e]++
		if (seen[s, t] > 1)
			bad(s, s ": " t ": reported " seen[s, t] " times")
	}
	# What the manifest expects of each suite.
	for (i = 1; i <= nent; i++) {
		s = ent_s[i]; t = ent_t[i]
		c = (s, t) in count ? count[s, t] : 1
		want[s] += c
		if (hits[s, t] + 0 == 0 && got[s])
			bad(s, s ": " t ": listed in " mname ", did not report")
		else if (got[s] && hits[s, t] != c)
			bad(s, s ": " t ": " hits[s, t] " reported, " mname " wants " c why[s, t])
		have[s] += hits[s, t]
	}
	for (k = 1; k <= nprob[""]; k++)
		out(0, prob["", k])
	for (j = 1; j <= nsuites; j++) {
		s = suites[j]
		for (k = 1; k <= nprob[s]; k++)
			out(0, prob[s, k])
		if (!got[s])
			out(0, s ": did not report at all (" want[s] " tests listed in " mname ")")
		else
			out(have[s] == want[s], s ": " have[s] " of " want[s] " listed tests reported")
	}
	for (s in unknown) {
		for (k = 1; k <= nprob[s]; k++)
			out(0, prob[s, k])
		out(0, s ": reported " unknown[s] " tests, but the suite is not in " mname " (add them)")
	}
	print "TAP version 13"
	print "1.." n
	for (i = 1; i <= n; i++)
		print tap[i]
	for (k in allowed)
		if (!(k in used)) {
			split(k, p, SUBSEP)
			print "# " aname " lists " p[1] ": " p[2] ", which did not skip"
		}
}
