# modules/harvest/program.mk -- weft-harvest, the ingest command.
# Included by the top Makefile.  Everything but main.c goes into
# libharvest.a, which the unit tests link too; the statements of
# sql/queries/harvest.sql become $(B)/gen/harvest_sql.{c,h}.
PROGRAMS += weft-harvest

harvest_SRCS    := $(wildcard modules/harvest/*.c)
harvest_LIBOBJS := $(patsubst %.c,$(B)/%.o,$(filter-out modules/harvest/main.c,$(harvest_SRCS)))

$(B)/libharvest.a: $(harvest_LIBOBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# analyse (analyse.c) weighs words with the semantic index's vocabulary:
# vectors.h's query side only (no BLAS), and threads.
$(B)/weft-harvest: $(B)/modules/harvest/main.o $(B)/libharvest.a \
    $(B)/gen/harvest_sql.o $(B)/libvectors.a $(CORE_LIB)
	$(CC) $(LDFLAGS) -o $@ $(B)/modules/harvest/main.o \
	    $(B)/gen/harvest_sql.o $(B)/libharvest.a $(B)/libvectors.a \
	    $(CORE_LIB) $(LDLIBS) -pthread

# The objects include harvest_sql.h: generate it first.
$(patsubst %.c,$(B)/%.o,$(harvest_SRCS)): | $(B)/gen/harvest_sql.h

MODULE_LIBS += $(B)/libharvest.a

# The harvest unit tests include the module's private header.
$(B)/tests/test_name $(B)/tests/test_affil $(B)/tests/test_loader_parse $(B)/tests/test_match \
    $(B)/tests/test_match_evidence \
    $(B)/tests/test_harvest_analyse: CFLAGS += -Imodules/harvest

# analyse.c and its test include vectors.h.
$(B)/modules/harvest/analyse.o $(B)/tests/test_harvest_analyse: \
    CFLAGS += -Imodules/vectors
