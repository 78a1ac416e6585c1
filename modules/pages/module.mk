# modules/pages/module.mk -- pages.so: papers, researchers, institutions,
# directories, home, static pages, negotiation and canonical redirects.
pages_SRCS := $(wildcard modules/pages/*.c)
pages_SQL  := sql/queries/pages.sql
PLUGINS    += pages

# Search and "similar papers" query weft's semantic index: libvectors.a
# (modules/vectors/vectors.h).  Only its query objects are pulled in,
# which need no BLAS.  The plugin rule links $^, which picks up this
# extra prerequisite after libpages.a.
$(patsubst %.c,$(B)/%.o,$(pages_SRCS)): CFLAGS += -Imodules/vectors
$(B)/pages.so: $(B)/libvectors.a
$(B)/tests/test_search_%: CFLAGS += -Imodules/vectors
