# weft -- one non-recursive build graph.
#
#   make            release build of weftd, the plugins and weft-harvest
#   make SAN=1      the same with AddressSanitizer/UBSan (used by the tests)
#   make run        the whole site locally on the bundled data (see README)
#   make test       every test, against real nginx, PostgreSQL and Redis
#
# Objects go to build/ (or build-san/, build-fuzz/), never mixed.

PKGS    := fcgi libpq hiredis jansson libcurl libxml-2.0 libsodium \
           libutf8proc libcmark-gfm zlib
CC      ?= cc
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wpointer-arith \
           -Wcast-qual -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wimplicit-fallthrough -Wvla
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

ifeq ($(SAN),1)
B       := build-san
OPT     := -O1 -g -fno-omit-frame-pointer \
           -fsanitize=address,undefined -fno-sanitize-recover=all
LDSAN   := -fsanitize=address,undefined
else ifeq ($(FUZZ),1)
B       := build-fuzz
CC      := clang
OPT     := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
LDSAN   := -fsanitize=address,undefined
else
B       := build
OPT     := -O2 -g -D_FORTIFY_SOURCE=2 -fstack-protector-strong
LDSAN   :=
# weftd's allocator in release builds: tcmalloc (Debian's
# libtcmalloc-minimal4) spends about a tenth less of a worker's CPU on
# the thousands of small jansson and libpq blocks of a page than glibc's
# (tests/bench/README.md).  The sanitizers bring their own allocator.
MALLOC_LIBS := $(shell pkg-config --libs libtcmalloc_minimal 2>/dev/null)
ifeq ($(MALLOC_LIBS),)
$(warning libtcmalloc_minimal not found (conf/local.sh deps installs libgoogle-perftools-dev): weftd uses glibc's allocator)
endif
endif

# BUILD=dir puts objects elsewhere (parallel builds of one tree).
ifneq ($(BUILD),)
B       := $(BUILD)
endif

CFLAGS  := $(CSTD) $(WARN) $(OPT) -fPIC -MMD -MP -Imodules/core -I$(B)/gen \
           $(PKG_CFLAGS) $(EXTRA_CFLAGS)
LDFLAGS := $(LDSAN) -Wl,-z,relro,-z,now $(EXTRA_LDFLAGS)
# cmark-gfm's extensions (tables) have no pkg-config file of their own.
LDLIBS  := $(PKG_LIBS) -lcmark-gfm-extensions -ldl -lm

all: weftd plugins harvest

# ---------------------------------------------------------------- core
CORE_SRCS := $(wildcard modules/core/*.c)
CORE_OBJS := $(CORE_SRCS:%.c=$(B)/%.o)
CORE_LIB  := $(B)/libweftcore.a

$(CORE_LIB): $(CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# V=1 shows the full commands.
ifneq ($(V),1)
Q := @
endif
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<

# Named SQL statements: sql/queries/<m>.sql -> an enum and a table.
$(B)/gen/%_sql.h $(B)/gen/%_sql.c: sql/queries/%.sql sql/stmts.awk
	@mkdir -p $(B)/gen
	awk -v mod=$* -v out=$(B)/gen/$*_sql -f sql/stmts.awk $<

# Long SQL statements exceed C99's 4095-byte string minimum; gcc and
# clang take them.
# A statement's {{NAME}} is a macro of modules/<m>/<m>.h (stmts.awk).
$(B)/gen/%.o: $(B)/gen/%.c
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -Imodules/$(*F:_sql=) -Wno-overlength-strings \
	    -c -o $@ $<

# ---------------------------------------------------------------- host
HOST_SRCS := $(wildcard modules/host/*.c)
HOST_OBJS := $(HOST_SRCS:%.c=$(B)/%.o)

# The host exports the core's symbols (-rdynamic, whole archive) so that
# plugins loaded with dlopen() resolve them from weftd itself.
# weftd refuses a database schema other than the newest migration here.
SCHEMA_VERSION := $(shell ls sql/schema | sed -n 's/^0*\([0-9][0-9]*\)_.*\.sql$$/\1/p' | sort -n | tail -1)
$(B)/modules/host/host.o: CFLAGS += -DWEFT_SCHEMA_VERSION=$(SCHEMA_VERSION)
# The version in a file rewritten only when it changes, so that a
# migration taken out (a revert) rebuilds host.o as one added does.
SCHEMA_STAMP := $(B)/gen/schema_version
$(shell mkdir -p $(B)/gen && \
    [ "$$(cat $(SCHEMA_STAMP) 2>/dev/null)" = "$(SCHEMA_VERSION)" ] || \
    echo "$(SCHEMA_VERSION)" >$(SCHEMA_STAMP))
$(B)/modules/host/host.o: $(SCHEMA_STAMP) $(wildcard sql/schema/*.sql)

$(B)/weftd: $(HOST_OBJS) $(CORE_LIB)
	$(CC) $(LDFLAGS) -rdynamic -o $@ $(HOST_OBJS) \
	    -Wl,--whole-archive $(CORE_LIB) -Wl,--no-whole-archive $(LDLIBS) \
	    $(MALLOC_LIBS)
weftd: $(B)/weftd

# ---------------------------------------------------------------- plugins
# Each modules/<m>/module.mk says: PLUGINS += <m> (and optionally <m>_SQL).
# Everything but module.c goes into lib<m>.a, which tests link too.
PLUGINS :=
PROGRAMS :=
include $(wildcard modules/*/module.mk)

define plugin_rules
$(1)_SRCS ?= $$(wildcard modules/$(1)/*.c)
$(1)_SQL  ?= $$(wildcard sql/queries/$(1).sql)
$(1)_GEN  := $$(if $$($(1)_SQL),$(B)/gen/$(1)_sql.c)
$(1)_LIBOBJS := $$(patsubst %.c,$(B)/%.o,$$(filter-out modules/$(1)/module.c,$$($(1)_SRCS))) \
                $$($(1)_GEN:.c=.o)
$(B)/lib$(1).a: $$($(1)_LIBOBJS)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
$(B)/$(1).so: $(B)/modules/$(1)/module.o $(B)/lib$(1).a
	$$(CC) $$(LDFLAGS) -shared -o $$@ $$^ $$(LDLIBS)
$$(patsubst %.c,$(B)/%.o,$$($(1)_SRCS)): | $$(if $$($(1)_SQL),$(B)/gen/$(1)_sql.h)
MODULE_LIBS += $(B)/lib$(1).a
endef
$(foreach m,$(PLUGINS),$(eval $(call plugin_rules,$(m))))

plugins: $(PLUGINS:%=$(B)/%.so)

# ---------------------------------------------------------------- harvest
-include modules/harvest/program.mk
-include modules/vectors/library.mk
harvest: $(PROGRAMS:%=$(B)/%)

# ---------------------------------------------------------------- tests
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)

# Dependency files go to $(B)/deps so that only binaries sit in tests/.
$(B)/tests/%: tests/unit/%.c $(MODULE_LIBS) $(CORE_LIB)
	@mkdir -p $(dir $@) $(B)/deps
	@$(if $(Q),echo "  TEST    $<")
	$(Q)$(CC) $(CFLAGS) -MF $(B)/deps/$*.d -Itests -o $@ $< $(MODULE_LIBS) $(CORE_LIB) \
	    $(LDFLAGS) $(LDLIBS)

unit-bins: $(UNIT_BINS)

# Unit tests only (pure functions, no servers).
check: all unit-bins
	prove -e '' $(UNIT_BINS)

# Every test: builds with the sanitizers, starts real servers under
# var/test, runs unit and integration tests, stops the servers.
test:
	tests/run.sh

integration:
	tests/run.sh integration

# ---------------------------------------------------------------- fuzz
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(B)/fuzz/%)
$(B)/fuzz/%: tests/fuzz/%.c $(MODULE_LIBS) $(CORE_LIB)
	@mkdir -p $(dir $@) $(B)/deps
	$(CC) $(CFLAGS) -MF $(B)/deps/$*.d -fsanitize=fuzzer -o $@ $< $(MODULE_LIBS) $(CORE_LIB) \
	    $(LDFLAGS) -fsanitize=fuzzer $(LDLIBS)
fuzz-bins: $(FUZZ_BINS)
fuzz:
	$(MAKE) FUZZ=1 fuzz-bins
	tests/fuzz/run.sh build-fuzz/fuzz $${FUZZ_SECONDS:-10}

# ---------------------------------------------------------------- install
# make install [PREFIX=/usr/local] [DESTDIR=]: binaries, plugins, static
# files, content, migrations and the bundled data, nginx sources, an
# example config (never overwritten) and the systemd units.  As root with
# no DESTDIR it also creates the unprivileged system users: "weft" (the
# harvester, owner of the tables) and one per pool (weft-pages,
# weft-accounts, weft-feeds, weft-chat: weftd switches to them).
PREFIX  ?= /usr/local
SHARE   := $(DESTDIR)$(PREFIX)/share/weft
UNITDIR ?= /etc/systemd/system

install: all
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/lib/weft $(SHARE)/sql/schema $(SHARE)/sql/data \
	    $(SHARE)/nginx $(SHARE)/modules/pages/static $(SHARE)/content \
	    $(SHARE)/postgresql $(DESTDIR)/etc/weft $(DESTDIR)$(UNITDIR)
	install -m 755 $(B)/weftd $(DESTDIR)$(PREFIX)/sbin/weftd
	install -m 755 $(B)/weft-harvest $(DESTDIR)$(PREFIX)/bin/weft-harvest
	install -m 755 $(B)/weft-vectors $(DESTDIR)$(PREFIX)/bin/weft-vectors
	install -m 644 $(PLUGINS:%=$(B)/%.so) $(DESTDIR)$(PREFIX)/lib/weft/
	install -m 644 modules/pages/static/* $(SHARE)/modules/pages/static/
	install -m 644 modules/pages/content/*.md $(SHARE)/content/
	install -m 644 sql/schema/*.sql $(SHARE)/sql/schema/
	install -m 644 sql/data/* $(SHARE)/sql/data/
	install -m 644 nginx/*.in $(SHARE)/nginx/
	install -m 755 nginx/gen.sh $(SHARE)/nginx/gen.sh
	install -m 644 conf/postgresql-weft.conf $(SHARE)/postgresql/weft.conf
	install -m 644 conf/sysctl-weft.conf $(SHARE)/postgresql/sysctl.conf
	for f in weft@.service weft-harvest.service weft-harvest.timer \
	    weft-digest.service weft-digest.timer; do \
	    sed 's|@PREFIX@|$(PREFIX)|g' conf/$$f >$(DESTDIR)$(UNITDIR)/$$f; \
	done
	test -e $(DESTDIR)/etc/weft/weft.conf || \
	    sed -e 's|/usr/local|$(PREFIX)|g' conf/weft.conf \
	    >$(DESTDIR)/etc/weft/weft.conf
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then \
	    id weft >/dev/null 2>&1 || useradd --system --home-dir \
	        /var/lib/weft --shell /usr/sbin/nologin weft; \
	    for u in weft-pages weft-accounts weft-feeds weft-chat; do \
	        id $$u >/dev/null 2>&1 || useradd --system --user-group \
	            --no-create-home --home-dir /nonexistent \
	            --shell /usr/sbin/nologin $$u; \
	    done; \
	    command -v systemctl >/dev/null && systemctl daemon-reload || true; \
	fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/sbin/weftd $(DESTDIR)$(PREFIX)/bin/weft-harvest
	rm -rf $(DESTDIR)$(PREFIX)/lib/weft $(SHARE)
	rm -f $(DESTDIR)$(UNITDIR)/weft@.service \
	    $(DESTDIR)$(UNITDIR)/weft-harvest.service \
	    $(DESTDIR)$(UNITDIR)/weft-harvest.timer \
	    $(DESTDIR)$(UNITDIR)/weft-digest.service \
	    $(DESTDIR)$(UNITDIR)/weft-digest.timer

# ---------------------------------------------------------------- local site
run:
	conf/local.sh up

stop:
	conf/local.sh down

status:
	conf/local.sh status

format:
	git ls-files -co --exclude-standard -- 'modules/*.[ch]' 'tests/unit/*.c' \
	    'tests/fuzz/*.c' | xargs clang-format -i

# What needs no build: the C sources as `make format` leaves them, the
# rules of tests/static/t_source_rules.sh, shellcheck on every script
# (tests/static/t_*.sh; `make test` runs them too).
lint:
	prove -f --exec '' tests/static/t_*.sh

clean:
	rm -rf build build-san build-fuzz

.PHONY: all weftd plugins harvest unit-bins check test integration \
        install uninstall \
        fuzz fuzz-bins run stop status format lint clean
-include $(shell find $(B) -name '*.d' 2>/dev/null)
