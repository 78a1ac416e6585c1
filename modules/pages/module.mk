# modules/pages/module.mk -- pages.so: papers, researchers, institutions,
# directories, home, static pages, negotiation and canonical redirects;
# search/ (/search) and evidence/ (the evidence and similar papers
# sections and pages) are parts of the same plugin.
pages_SRCS := $(wildcard modules/pages/*.c modules/pages/search/*.c \
                         modules/pages/evidence/*.c)
pages_SQL  := sql/queries/pages.sql
PLUGINS    += pages

# Search and "similar papers" query weft's semantic index: libvectors.a
# (modules/vectors/vectors.h).  Only its query objects are pulled in,
# which need no BLAS.  The plugin rule links $^, which picks up this
# extra prerequisite after libpages.a.  The files of the subfolders
# include "pages.h" and "search/search.h" from modules/pages, and so do
# the unit tests of pages and search.
$(patsubst %.c,$(B)/%.o,$(pages_SRCS)): CFLAGS += -Imodules/pages -Imodules/vectors
$(B)/pages.so: $(B)/libvectors.a
$(B)/tests/test_search_%: CFLAGS += -Imodules/pages -Imodules/vectors
$(B)/tests/test_pages_%: CFLAGS += -Imodules/pages
$(B)/fuzz/fuzz_search: CFLAGS += -Imodules/pages
# The og:image cards (card/): SVG drawn by librsvg and cairo, text
# measured with pango.  Only card/'s objects and pages.so need them;
# card/url.c (the layout's link) needs none, so the renderers' tests
# link without them.
pages_SRCS += $(wildcard modules/pages/card/*.c)
CARD_PKGS := librsvg-2.0 pangocairo
$(patsubst %.c,$(B)/%.o,$(wildcard modules/pages/card/*.c)): \
    CFLAGS += -Imodules/pages $(shell pkg-config --cflags $(CARD_PKGS) 2>/dev/null)
$(B)/pages.so: LDLIBS += $(shell pkg-config --libs $(CARD_PKGS) 2>/dev/null)
$(B)/tests/test_card_% $(B)/fuzz/fuzz_card_%: LDLIBS += $(shell pkg-config --libs $(CARD_PKGS) 2>/dev/null)
# The MCP server (mcp/): /mcp, the pages' views as tools and resources.
pages_SRCS += $(wildcard modules/pages/mcp/*.c)
$(patsubst %.c,$(B)/%.o,$(wildcard modules/pages/mcp/*.c)): CFLAGS += -Imodules/pages
# Its tool "ask" (mcp/ask.c) answers with the chat module's retrieval
# and extracts: chat.h, and libchat.a linked after libpages.a (only
# answer.o and chat's statement table are pulled in).
$(B)/modules/pages/mcp/ask.o: CFLAGS += -Imodules/chat
$(B)/modules/pages/mcp/ask.o: | $(B)/gen/chat_sql.h
$(B)/pages.so: $(B)/libchat.a
$(B)/fuzz/fuzz_mcp: CFLAGS += -Imodules/pages
