/*
 * lsan.c -- what LeakSanitizer (make SAN=1) is told to ignore in weftd.
 * fontconfig, under pango in the pages plugin's card drawing, keeps its
 * configuration for the life of the process and frees none of it at
 * exit; the sanitizers' own runtime asks the executable for this list.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);

const char *
__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

/* The list of suppressions used would go to every worker's log. */
const char *
__lsan_default_options(void)
{
	return "print_suppressions=0";
}
