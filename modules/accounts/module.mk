# modules/accounts/module.mk -- accounts.so: sign-up, sign-in, sessions,
# follows, /feed and the per-user SSI fragments under /account/.
accounts_SRCS := $(wildcard modules/accounts/*.c)
accounts_SQL  := sql/queries/accounts.sql
PLUGINS       += accounts
