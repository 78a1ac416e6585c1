# sql/stmts.awk -- turns the "-- name: X" blocks of sql/queries/<mod>.sql
# into an enum (MOD_SQL_X) and a { name, sql } table for core_db_open().
#   awk -v mod=pages -v out=build/gen/pages_sql -f sql/stmts.awk pages.sql
#
# Result columns: each statement's select list (or RETURNING list, or
# the query of a DECLARE ... CURSOR FOR) gives
# an enum of its columns, MOD_STMT__COL, ending in MOD_STMT__MAX, and the
# column names in the table, which core_db_open() compares with what
# PostgreSQL describes, so a column that moves or is renamed stops the
# worker at start-up.  A column is named as PostgreSQL names it: its
# alias (AS name), a column reference's last part (p.title: title, also
# with a ::cast) or a function's name (count(*) OVER (): count); any
# other expression needs an alias, and two columns of one statement may
# not share a name (the build fails and says which).  A fragment whose
# name ends in _COLUMNS is a list of columns that several statements
# begin their select list with: it gives MOD_FRAG__COL (FRAG without
# _COLUMNS), for code that reads any of those statements' rows.
#
# Two kinds of {{NAME}} in a statement:
#   - a "-- fragment: NAME" block of the same file: its text, written once
#     and used by every statement that names it;
#   - any other NAME: a C integer macro of the module's header
#     (modules/<mod>/<mod>.h), pasted in as a literal at compile time, so
#     a limit that C and SQL share has one definition and the statement
#     has no parameter for it (a LIMIT known when the statement is
#     prepared lets PostgreSQL keep one plan instead of planning every
#     execution).
#
# A "-- plan: each" line in a statement's comment marks it for a plan
# made with its parameters' values at every execution (core_db_exec()
# sends it as an unnamed statement), for a statement whose best plan
# depends on those values: a prepared statement's generic plan, which
# PostgreSQL takes from the sixth execution on, is made without them.
function flush() {
	if (name == "")
		return
	if (kind == "fragment") {
		frags[name] = body
		fnames[nf++] = name
	}
	else {
		names[n] = name
		sqls[n] = body
		n++
	}
	name = ""
	body = ""
}
function cstr(s) {
	gsub(/\\/, "\\\\\\\\", s)
	gsub(/"/, "\\\"", s)
	return s
}
# The fragments of s, substituted (fragments may not name fragments).
function expand(s,    r, key) {
	r = ""
	while (match(s, /\{\{[A-Z][A-Z0-9_]*\}\}/)) {
		key = substr(s, RSTART + 2, RLENGTH - 4)
		r = r substr(s, 1, RSTART - 1)
		r = r (key in frags ? frags[key] : "{{" key "}}")
		s = substr(s, RSTART + RLENGTH)
	}
	return r s
}
# One line as C string literal pieces; {{MACRO}} becomes SQL_INT(MACRO).
function cline(s,    r, key) {
	r = "\""
	while (match(s, /\{\{[A-Z][A-Z0-9_]*\}\}/)) {
		key = substr(s, RSTART + 2, RLENGTH - 4)
		r = r cstr(substr(s, 1, RSTART - 1)) "\" SQL_INT(" key ") \""
		s = substr(s, RSTART + RLENGTH)
		if (!(key in used))
			order[macros++] = key
		used[key] = 1
	}
	return r cstr(s)
}

# ---------------------------------------------------------------- columns
# Splits s into tokens: tk[1..nt], their paren depth dp[] (a "(" and its
# ")" have the depth outside them).  Strings and quoted names are one
# token each; "--" comments are dropped.
function tokenize(s,    i, c, d, t, j, L) {
	nt = 0
	d = 0
	L = length(s)
	i = 1
	while (i <= L) {
		c = substr(s, i, 1)
		if (c ~ /[ \t\n]/) {
			i++
			continue
		}
		if (c == "-" && substr(s, i + 1, 1) == "-") {
			while (i <= L && substr(s, i, 1) != "\n")
				i++
			continue
		}
		if (c == "'" || c == "\"") {
			j = i + 1
			while (j <= L) {
				if (substr(s, j, 1) == c) {
					if (substr(s, j + 1, 1) == c) {
						j += 2
						continue
					}
					break
				}
				j++
			}
			t = substr(s, i, j - i + 1)
			i = j + 1
		} else if (c ~ /[A-Za-z_]/) {
			match(substr(s, i), /^[A-Za-z_][A-Za-z0-9_$]*/)
			t = substr(s, i, RLENGTH)
			i += RLENGTH
		} else if (c ~ /[0-9$]/) {
			match(substr(s, i), /^[$]?[0-9][0-9.]*/)
			t = substr(s, i, RLENGTH)
			i += RLENGTH
		} else {
			t = c
			i++
		}
		if (t == ")")
			d--
		tk[++nt] = t
		dp[nt] = d
		if (t == "(")
			d++
	}
}
function isname(t,    u) {
	u = toupper(t)
	if (u == "NULL" || u == "TRUE" || u == "FALSE" || u == "CASE" ||
	    u == "ARRAY" || u == "ROW")
		return 0
	return t ~ /^[A-Za-z_][A-Za-z0-9_$]*$/ || t ~ /^".*"$/
}
function unquote(t) {
	if (t ~ /^".*"$/)
		return substr(t, 2, length(t) - 2)
	return tolower(t)
}
# The index of the ")" that closes the "(" at i.
function close_of(i,    d) {
	d = dp[i]
	for (i++; i <= nt; i++)
		if (tk[i] == ")" && dp[i] == d)
			return i
	return nt + 1
}
# Skips "::type", "::type[]", "::type(n)" from i; the index after it.
function skip_casts(i, b) {
	while (i + 2 < b && tk[i] == ":" && tk[i + 1] == ":" &&
	    isname(tk[i + 2])) {
		i += 3
		while (i < b && tk[i] == "[" && tk[i + 1] == "]")
			i += 2
		if (i < b && tk[i] == "(")
			i = close_of(i) + 1
	}
	return i
}
# The name PostgreSQL gives the column of tokens a..b-1, or "" if the
# expression needs an alias.
function colname(a, b,    i, f) {
	if (b - a >= 2 && toupper(tk[b - 2]) == "AS" && isname(tk[b - 1]))
		return unquote(tk[b - 1])
	if (!isname(tk[a]))
		return ""
	# a.b.c
	i = a
	while (i + 2 < b && tk[i + 1] == "." && isname(tk[i + 2]))
		i += 2
	if (i + 1 == b || skip_casts(i + 1, b) == b)
		return unquote(tk[i])
	# f(...) [FILTER (...)] [OVER (...)] [::type]
	if (i == a && tk[a + 1] == "(") {
		f = tk[a]
		i = close_of(a + 1) + 1
		if (i < b && toupper(tk[i]) == "FILTER" && tk[i + 1] == "(")
			i = close_of(i + 1) + 1
		if (i < b && toupper(tk[i]) == "OVER" && tk[i + 1] == "(")
			i = close_of(i + 1) + 1
		if (skip_casts(i, b) == b)
			return unquote(f)
	}
	return ""
}
# Splits tokens a..b-1 at the commas of depth d into column names:
# cn[1..return value]; fails the build (bad = 1) on an unnamed one.
function split_cols(what, a, b, d,    i, k, s, j, x) {
	k = 0
	s = a
	for (i = a; i <= b; i++) {
		if (i < b && !(tk[i] == "," && dp[i] == d))
			continue
		if (i == s)
			break
		cn[++k] = colname(s, i)
		if (cn[k] == "") {
			x = ""
			for (j = s; j < i && j < s + 12; j++)
				x = x (x == "" ? "" : " ") tk[j]
			printf "sql/queries/%s.sql: %s: column %d needs AS name: %s ...\n", \
			    mod, what, k, x > "/dev/stderr"
			bad = 1
		}
		for (j = 1; j < k && cn[k] != ""; j++)
			if (cn[j] == cn[k]) {
				printf "sql/queries/%s.sql: %s: two columns named %s\n", \
				    mod, what, cn[k] > "/dev/stderr"
				bad = 1
			}
		if (toupper(cn[k]) == "MAX") {
			printf "sql/queries/%s.sql: %s: a column named max clashes " \
			    "with the __MAX sentinel: alias it\n", mod, what > "/dev/stderr"
			bad = 1
		}
		s = i + 1
	}
	return k
}
# The result columns of statement s: cn[1..return value].
function result_cols(what, s,    i, d, b, u) {
	tokenize(s)
	i = 1
	# DECLARE name ... CURSOR FOR query: the query's columns (FETCH).
	if (toupper(tk[1]) == "DECLARE") {
		while (i <= nt && !(toupper(tk[i]) == "FOR" && dp[i] == 0))
			i++
		i++
	}
	if (toupper(tk[i]) == "WITH") {
		i++
		if (toupper(tk[i]) == "RECURSIVE")
			i++
		for (;;) {
			while (i <= nt && !(toupper(tk[i]) == "AS" && dp[i] == 0))
				i++
			i++
			while (i <= nt && tk[i] != "(")
				i++
			i = close_of(i) + 1
			if (tk[i] != ",")
				break
			i++
		}
	}
	while (tk[i] == "(")
		i++
	u = toupper(tk[i])
	if (u != "SELECT") {
		for (; i <= nt; i++)
			if (toupper(tk[i]) == "RETURNING" && dp[i] == 0)
				return split_cols(what, i + 1, nt + (tk[nt] != ";"), 0)
		return 0
	}
	d = dp[i]
	i++
	if (toupper(tk[i]) == "ALL")
		i++
	if (toupper(tk[i]) == "DISTINCT") {
		i++
		if (toupper(tk[i]) == "ON")
			i = close_of(i + 1) + 1
	}
	for (b = i; b <= nt; b++) {
		if (dp[b] < d || (tk[b] == ";" && dp[b] == d))
			break
		u = toupper(tk[b])
		if (dp[b] == d && (u == "FROM" || u == "UNION" || u == "WHERE" ||
		    u == "INTERSECT" || u == "EXCEPT" || u == "GROUP" ||
		    u == "ORDER" || u == "LIMIT" || u == "INTO" ||
		    u == "HAVING" || u == "WINDOW"))
			break
	}
	return split_cols(what, i, b, d)
}
BEGIN { n = 0; nf = 0; name = ""; body = ""; macros = 0; bad = 0 }
/^-- name: / { flush(); name = $3; kind = "name"; next }
/^-- fragment: / { flush(); name = $3; kind = "fragment"; next }
/^-- plan: each$/ { if (kind == "name") each[name] = 1; next }
/^--/ { next }
{
	if (name == "")
		next
	line = $0
	sub(/[ \t]+$/, "", line)
	if (line == "")
		next
	body = body (body == "" ? "" : "\n") line
}
END {
	flush()
	up = toupper(mod)
	h = out ".h"
	c = out ".c"
	print "/* Generated from sql/queries/" mod ".sql by sql/stmts.awk. */" > h
	print "#ifndef " up "_SQL_H" > h
	print "#define " up "_SQL_H" > h
	print "#include \"core.h\"" > h
	print "enum " mod "_sql {" > h
	for (i = 0; i < n; i++)
		print "\t" up "_SQL_" names[i] "," > h
	print "\t" up "_SQL__MAX" > h
	print "};" > h
	for (f = 0; f < nf; f++) {
		if (fnames[f] !~ /_COLUMNS$/)
			continue
		k = result_cols("fragment " fnames[f], "SELECT " frags[fnames[f]])
		p = up "_" substr(fnames[f], 1, length(fnames[f]) - 8) "__"
		print "/* The columns of {{" fnames[f] "}}. */" > h
		print "enum {" > h
		for (j = 1; j <= k; j++)
			print "\t" p toupper(cn[j]) "," > h
		print "\t" p "MAX" > h
		print "};" > h
	}
	for (i = 0; i < n; i++) {
		k = result_cols(names[i], expand(sqls[i]))
		ncols[i] = k
		cols[i] = ""
		print "/* The result columns of " up "_SQL_" names[i] ". */" > h
		print "enum {" > h
		for (j = 1; j <= k; j++) {
			print "\t" up "_" names[i] "__" toupper(cn[j]) "," > h
			cols[i] = cols[i] " \"" cn[j] "\","
		}
		print "\t" up "_" names[i] "__MAX" > h
		print "};" > h
	}
	print "extern const struct core_stmt " mod "_sql[" up "_SQL__MAX];" > h
	print "#endif" > h
	tab = ""
	for (i = 0; i < n; i++) {
		if (ncols[i] > 0)
			colt = colt "static const char *const cols_" names[i] \
			    "[] = {" cols[i] " };\n"
		tab = tab "\t{ \"" names[i] "\",\n"
		m = split(expand(sqls[i]), ls, "\n")
		for (j = 1; j <= m; j++)
			tab = tab "\t    " cline(ls[j]) (j < m ? "\\n" : "") "\"" \
			    (j < m ? "" : ",") "\n"
		if (ncols[i] > 0)
			tab = tab "\t    cols_" names[i] ", " ncols[i]
		else
			tab = tab "\t    NULL, 0"
		tab = tab (names[i] in each ? ", 1" : ", 0") " },\n"
	}
	print "/* Generated from sql/queries/" mod ".sql by sql/stmts.awk. */" > c
	print "#include \"" mod "_sql.h\"" > c
	if (macros > 0) {
		print "#include \"" mod ".h\"" > c
		print "#define SQL_INT_(x) #x" > c
		print "#define SQL_INT(x) SQL_INT_(x)" > c
		# A misspelt name fails the build, not the statement's prepare.
		for (i = 0; i < macros; i++) {
			print "#ifndef " order[i] > c
			print "#error \"sql/queries/" mod ".sql: {{" order[i] \
			    "}} is neither a fragment nor a macro of " mod ".h\"" > c
			print "#endif" > c
		}
	}
	printf "%s", colt > c
	print "const struct core_stmt " mod "_sql[" up "_SQL__MAX] = {" > c
	printf "%s", tab > c
	print "};" > c
	if (bad) {
		close(h)
		close(c)
		system("rm -f " h " " c)
		exit 1
	}
}
