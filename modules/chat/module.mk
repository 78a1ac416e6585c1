# modules/chat/module.mk -- chat.so: chat with the papers (issue 17).
# It reuses accounts' pure session and CSRF functions (accounts.h,
# validate.c) by linking libaccounts.a, never a copy of them.
chat_SRCS := $(wildcard modules/chat/*.c)
chat_SQL  := sql/queries/chat.sql
PLUGINS   += chat
$(B)/modules/chat/%.o: CFLAGS += -Imodules/accounts
$(B)/chat.so: $(B)/libaccounts.a
# Retrieval is /search's hybrid ranking over weft's semantic index:
# pages' search/search_rank.c and vindex.c (the current index), linked
# from libpages.a (only those two objects are pulled in), and the query
# side of libvectors.a.
$(B)/modules/chat/%.o: CFLAGS += -Imodules/pages -Imodules/vectors
$(B)/chat.so: $(B)/libpages.a $(B)/libvectors.a
$(B)/tests/test_chat%: CFLAGS += -Imodules/pages -Imodules/vectors
