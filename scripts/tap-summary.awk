# One TAP/KTAP stream -> PASS/FAIL/SKIP lines (see tap-summary.sh).
# KTAP nests subtests by indentation and prints a parent's result after
# its children: a result line is a leaf unless the result line just before
# it was indented deeper.
function indent(s) { match(s, /^ */); return RLENGTH }
function report(kind, what, i) {
	print kind " " what
	if (kind == "FAIL")
		for (i = 0; i < ndiag; i++)
			print "      " diag[i]
}
BEGIN { prev = -1; ndiag = 0; top = 0; plan = -1; failed = 0 }
{
	line = $0
	d = indent(line)
	body = substr(line, d + 1)
}
body ~ /^# Subtest: / { sub_name[d] = substr(body, 12); next }
body ~ /^1\.\.[0-9]+/ && d == 0 && plan < 0 { plan = substr(body, 4) + 0; next }
body ~ /^(not )?ok / {
	ok = body !~ /^not /
	desc = body
	sub(/^(not )?ok [0-9]+ *(- )?/, "", desc)
	if (d == 0)
		top++
	leaf = !(prev > d)
	prev = d
	if (leaf) {
		directive = ""
		if (match(desc, / *# *(SKIP|skip)/)) {
			directive = substr(desc, RSTART)
			desc = substr(desc, 1, RSTART - 1)
		}
		what = suite ": " ((d in sub_name) ? sub_name[d] "." : "") desc
		if (directive ~ /SKIP|skip/) {
			sub(/^ *# *(SKIP|skip) */, "", directive)
			print "SKIP " what (directive != "" ? " (" directive ")" : "")
		} else if (ok) {
			report("PASS", what)
		} else {
			report("FAIL", what); failed++
		}
	} else if (!ok && !failed) {
		report("FAIL", suite ": " desc); failed++
	}
	ndiag = 0
	next
}
body ~ /^#/ && ndiag < 40 { diag[ndiag++] = body }
END {
	if (top == 0 && plan != 0)
		{ print "FAIL " suite ": no test result in its output"; exit }
	if (plan >= 0 && top != plan)
		print "FAIL " suite ": planned " plan " tests, reported " top
	if (rc != "" && rc != 0 && !failed)
		print "FAIL " suite ": exited with status " rc (rc == 124 ? " (timed out)" : "")
}
