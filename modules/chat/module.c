/*
 * module.c -- the chat plugin's descriptor: routes, statements, init
 * (the LLM client, when llm_url is set, the quotas, the semantic index)
 * and fini.  nginx sends this module /chat and /chat/..., unbuffered.
 */
#include "core.h"
#include "chat.h"
#include "chat_sql.h"
#include "vindex.h"

static const struct core_route routes[] = {
	{ "GET", "/chat", chat_list_get },
	{ "POST", "/chat", chat_ask_post },
	{ "GET", "/chat/*", chat_one_get },
	{ "POST", "/chat/*", chat_post_dispatch },
	{ NULL, NULL, NULL },
};

static enum core_err
init(struct core_ctx *ctx)
{
	struct chat_state *st = ctx->mod_state;

	st->llm = core_llm_open(ctx->conf);
	st->per_minute = core_conf_int(ctx->conf, "chat_per_minute", 10);
	st->global_minute =
	    core_conf_int(ctx->conf, "chat_global_per_minute", 600);
	st->tokens_day = core_conf_int(ctx->conf, "chat_tokens_day", 200000);
	core_log(CORE_LOG_INFO, "chat_start", "mode=%s",
	    st->llm != NULL ? "llm" : "extractive");
	/* The semantic index retrieval ranks with (answer.c). */
	pages_vindex_init_stmt(ctx, CHAT_SQL_VECTOR_INDEX_LATEST);
	return CORE_OK;
}

static void
fini(struct core_ctx *ctx)
{
	struct chat_state *st = ctx->mod_state;

	pages_vindex_fini();
	core_llm_close(st->llm);
}

const struct core_module weft_module = {
	CORE_MODULE(chat, CHAT, struct chat_state),
};
