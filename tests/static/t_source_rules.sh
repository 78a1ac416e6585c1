#!/bin/bash
# Rules about the source tree that no compiler checks.
cd "$(dirname "$0")/../.." || exit 1
n=0; fail=0
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else
		fail=$((fail + 1)); echo "not ok $n - $2"
		printf '%s\n' "$3" | sed 's/^/#   /'; fi
}
hits=$(grep -rnE '[|(,=][[:space:]]*CMARK_OPT_UNSAFE' modules 2>/dev/null)
[ -z "$hits" ]; check $? "CMARK_OPT_UNSAFE is never passed to cmark" "$hits"
hits=$(grep -rn 'FCGX_FPrintF' modules 2>/dev/null)
[ -z "$hits" ]; check $? "no FCGX_FPrintF (it stops at %zu)" "$hits"
hits=$(grep -rn 'xmlTextWriterWriteRaw' modules --include=*.c | grep -v '^modules/core/')
[ -z "$hits" ]; check $? "xmlTextWriterWriteRaw only inside core" "$hits"
hits=$(grep -rnE 'PQexec\(' modules --include=*.c | grep -v -E '^modules/(core|harvest)/')
[ -z "$hits" ]; check $? "modules run SQL only as prepared statements" "$hits"
hits=$(grep -rnE 'XML_PARSE_(NOENT|DTDLOAD)' modules 2>/dev/null)
[ -z "$hits" ]; check $? "no entity expansion or DTD loading in XML parsing" "$hits"
# Issue 20: a result cell is read by its column's name (the enums of
# sql/stmts.awk), never by number: a number silently reads another
# column once a select list changes.  Perl sees each call whole, however
# it is wrapped, with comments and strings blanked: the column argument
# of core_cell_*() and PQgetvalue/PQgetisnull/PQgetlength (the third),
# of PQfname/PQftype/... (the second) may not be an integer literal.
hits=$(find modules -name '*.[ch]' -print0 | xargs -0 perl -e '
my %col = map { $_ => 2 } qw(PQgetvalue PQgetisnull PQgetlength);
$col{$_} = 1 for qw(PQfname PQftype PQfmod PQfsize PQfformat PQftable
    PQftablecol);
for my $f (@ARGV) {
	open(my $fh, "<", $f) or die "$f: $!";
	my $s = do { local $/; <$fh> };
	$s =~ s{(/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27)}
	    {(my $m = $1) =~ tr/\n/ /c; $m}gse;
	while ($s =~ /\b(core_cell_\w+|PQ\w+)\s*\(/g) {
		my ($fn, $at, $i) = ($1, $-[0], $+[0]);
		my $k = $fn =~ /^core_cell_/ ? 2 : $col{$fn};
		next unless defined $k;
		my ($d, $cur, @args) = (0, "");
		for (; $i < length $s; $i++) {
			my $c = substr($s, $i, 1);
			if ($c eq "(") { $d++ }
			elsif ($c eq ")") { last if $d-- == 0 }
			elsif ($c eq "," && $d == 0) { push @args, $cur; $cur = ""; next }
			$cur .= $c;
		}
		push @args, $cur;
		next if $k >= @args;
		(my $a = $args[$k]) =~ s/\s+//g;
		1 while $a =~ s/^\((?:int|long|unsigned|size_t)\)// ||
		    $a =~ s/^\((.*)\)$/$1/;
		next unless $a =~ /^[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$/;
		printf "%s:%d: %s(..., %s)\n", $f,
		    1 + (substr($s, 0, $at) =~ tr/\n//), $fn, $a;
	}
}')
[ -z "$hits" ]; check $? "result cells are read by column name, not number" "$hits"
echo "1..$n"
[ "$fail" = 0 ]
