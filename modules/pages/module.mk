# modules/pages/module.mk -- pages.so: papers, researchers, institutions,
# directories, home, static pages, negotiation and canonical redirects.
pages_SRCS := $(wildcard modules/pages/*.c)
pages_SQL  := sql/queries/pages.sql
PLUGINS    += pages
