# modules/feeds/module.mk -- feeds.so: RSS feeds, sitemaps, robots.txt,
# llms.txt and openapi.json.
feeds_SRCS := $(wildcard modules/feeds/*.c)
feeds_SQL  := sql/queries/feeds.sql
PLUGINS    += feeds

# openapi.json is compiled into libfeeds.a as a byte array (NUL-ended),
# so the plugin needs no data file at run time.  The archive rule links
# $^, which picks up this extra prerequisite.
$(B)/gen/feeds_openapi.c: modules/feeds/openapi.json
	@mkdir -p $(B)/gen
	@{ echo '/* Generated from $< by modules/feeds/module.mk. */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const unsigned char feeds_openapi_json[];'; \
	  echo 'extern const size_t feeds_openapi_json_len;'; \
	  echo 'const unsigned char feeds_openapi_json[] = {'; \
	  od -An -v -tx1 $< | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0x00 };'; \
	  echo 'const size_t feeds_openapi_json_len ='; \
	  echo '    sizeof(feeds_openapi_json) - 1;'; } >$@.tmp && mv $@.tmp $@
$(B)/gen/feeds_openapi.o: $(B)/gen/feeds_openapi.c
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS) -c -o $@ $<
$(B)/libfeeds.a: $(B)/gen/feeds_openapi.o
