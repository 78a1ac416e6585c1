# modules/vectors/library.mk -- libvectors.a, weft's own semantic index
# (query side for pages.so: vectors.h; offline side: internal.h), and the
# weft-vectors command (build, eval, bench).  Included by the top
# Makefile.  Everything but cli.c goes into libvectors.a, which the unit
# tests link too; sql/queries/vectors.sql becomes $(B)/gen/vectors_sql.*.
#
# Only svd.o needs OpenBLAS and LAPACKE: a plugin that calls the query
# functions of vectors.h pulls in query.o, file.o and token.o alone and
# links without them.
PROGRAMS += weft-vectors

vectors_SRCS    := $(wildcard modules/vectors/*.c)
vectors_LIBOBJS := $(patsubst %.c,$(B)/%.o,$(filter-out modules/vectors/cli.c,$(vectors_SRCS))) \
                   $(B)/gen/vectors_sql.o
VECTORS_CFLAGS  := $(shell pkg-config --cflags openblas lapacke 2>/dev/null)
VECTORS_LIBS    := $(shell pkg-config --libs openblas lapacke 2>/dev/null) -pthread

$(B)/libvectors.a: $(vectors_LIBOBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/weft-vectors: $(B)/modules/vectors/cli.o $(B)/libvectors.a $(CORE_LIB)
	$(CC) $(LDFLAGS) -o $@ $(B)/modules/vectors/cli.o $(B)/libvectors.a \
	    $(CORE_LIB) $(LDLIBS) $(VECTORS_LIBS)

# The objects include vectors_sql.h: generate it first.
$(patsubst %.c,$(B)/%.o,$(vectors_SRCS)): | $(B)/gen/vectors_sql.h
$(B)/modules/vectors/svd.o: CFLAGS += $(VECTORS_CFLAGS)

MODULE_LIBS += $(B)/libvectors.a

# The unit tests and the fuzz target see the private header.
$(B)/tests/test_vectors_%: CFLAGS += -Imodules/vectors
$(B)/tests/test_vectors_%: LDLIBS += $(VECTORS_LIBS)
$(B)/fuzz/fuzz_vectors $(B)/fuzz/fuzz_vec_text: CFLAGS += -Imodules/vectors
