# modules/chat/module.mk -- chat.so: chat with the papers (issue 17).
# It reuses accounts' pure session and CSRF functions (accounts.h,
# validate.c) by linking libaccounts.a, never a copy of them.
chat_SRCS := $(wildcard modules/chat/*.c)
chat_SQL  := sql/queries/chat.sql
PLUGINS   += chat
$(B)/modules/chat/%.o: CFLAGS += -Imodules/accounts
$(B)/chat.so: $(B)/libaccounts.a
