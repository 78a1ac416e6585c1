# sql/stmts.awk -- turns the "-- name: X" blocks of sql/queries/<mod>.sql
# into an enum (MOD_SQL_X) and a { name, sql } table for core_db_open().
#   awk -v mod=pages -v out=build/gen/pages_sql -f sql/stmts.awk pages.sql
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
function flush() {
	if (name == "")
		return
	if (kind == "fragment")
		frags[name] = body
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
BEGIN { n = 0; name = ""; body = ""; macros = 0 }
/^-- name: / { flush(); name = $3; kind = "name"; next }
/^-- fragment: / { flush(); name = $3; kind = "fragment"; next }
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
	print "extern const struct core_stmt " mod "_sql[" up "_SQL__MAX];" > h
	print "#endif" > h
	tab = ""
	for (i = 0; i < n; i++) {
		tab = tab "\t{ \"" names[i] "\",\n"
		m = split(expand(sqls[i]), ls, "\n")
		for (j = 1; j <= m; j++)
			tab = tab "\t    " cline(ls[j]) (j < m ? "\\n" : "") "\"\n"
		tab = tab "\t},\n"
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
	print "const struct core_stmt " mod "_sql[" up "_SQL__MAX] = {" > c
	printf "%s", tab > c
	print "};" > c
}
