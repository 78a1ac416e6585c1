# sql/stmts.awk -- turns the "-- name: X" blocks of sql/queries/<mod>.sql
# into an enum (MOD_SQL_X) and a { name, sql } table for core_db_open().
#   awk -v mod=pages -v out=build/gen/pages_sql -f sql/stmts.awk pages.sql
function flush() {
	if (name == "")
		return
	names[n] = name
	sqls[n] = body
	n++
	name = ""
	body = ""
}
function cstr(s) {
	gsub(/\\/, "\\\\\\\\", s)
	gsub(/"/, "\\\"", s)
	return s
}
BEGIN { n = 0; name = ""; body = "" }
/^-- name: / { flush(); name = $3; next }
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
	print "/* Generated from sql/queries/" mod ".sql by sql/stmts.awk. */" > c
	print "#include \"" mod "_sql.h\"" > c
	print "const struct core_stmt " mod "_sql[" up "_SQL__MAX] = {" > c
	for (i = 0; i < n; i++) {
		print "\t{ \"" names[i] "\"," > c
		m = split(sqls[i], ls, "\n")
		for (j = 1; j <= m; j++)
			print "\t    \"" cstr(ls[j]) (j < m ? "\\n" : "") "\"" > c
		print "\t}," > c
	}
	print "};" > c
}
