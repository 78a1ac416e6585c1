/*
 * test_vectors_wordvec.c -- fastText's .vec text read as untrusted
 * input, the trainer's labelled training text, and the blend of word
 * vectors into a model's projection.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t.h"
#include "core.h"
#include "internal.h"

static enum core_err
parse(const char *s)
{
	struct vec_wordvecs wv;
	enum core_err er = vec_wv_parse(s, strlen(s), &wv);

	vec_wv_free(&wv);
	return er;
}

int
main(void)
{
	struct vec_wordvecs wv;
	struct vec_trainer tr;
	struct vec_model m;
	struct vec_csr a;
	char *buf = NULL, path[] = "/tmp/test_wordvec_XXXXXX";
	size_t len = 0, i, j;
	double energy_svd = 0, energy_wv = 0;
	int fd;
	static const char good[] = "3 2\n"
				   "alpha 0.5 -1 \n"
				   "beta 1e-3 2.5\n"
				   "</s> 0 0";

	T_EQ(vec_wv_parse(good, strlen(good), &wv), CORE_OK, "valid text");
	T_EQ(wv.n, 3, "three words");
	T_EQ(wv.dim, 2, "two dims");
	T_STREQ(wv.words[1], "beta", "second word");
	T_OK(wv.v[0] == 0.5f && wv.v[1] == -1.0f && wv.v[3] == 2.5f,
	    "numbers read");
	vec_wv_free(&wv);
	/* Not NUL-terminated: the parser stops at n. */
	T_EQ(vec_wv_parse(good, strlen(good) - 2, &wv), CORE_EINPUT,
	    "cut inside the last line");
	vec_wv_free(&wv);

	T_EQ(parse(""), CORE_EINPUT, "empty");
	T_EQ(parse("2\nalpha 1\n"), CORE_EINPUT, "header of one number");
	T_EQ(parse("1 0\nalpha\n"), CORE_EINPUT, "zero dims");
	T_EQ(parse("1 2000\nalpha 1\n"), CORE_EINPUT, "dims beyond the limit");
	T_EQ(parse("99999999999999999999 2\n"), CORE_EINPUT, "huge count");
	T_EQ(parse("1000000 2\nalpha 1 2\n"), CORE_EINPUT,
	    "count the bytes cannot hold");
	T_CONTAINS(vec_wv_why(), "fewer bytes", "reason given");
	T_EQ(parse("2 2\nalpha 1 2\n"), CORE_EINPUT, "a line missing");
	T_EQ(parse("1 2\nalpha 1 2\nbeta 1 2\n"), CORE_EINPUT, "a line extra");
	T_EQ(parse("1 2\nalpha 1\n"), CORE_EINPUT, "a number missing");
	T_EQ(parse("1 2\nalpha 1 2 3\n"), CORE_EINPUT, "a number extra");
	T_EQ(parse("1 2\nalpha 1 nan\n"), CORE_EINPUT, "not a number");
	T_EQ(parse("1 2\nalpha 1 inf\n"), CORE_EINPUT, "infinite");
	T_EQ(parse("1 2\nalpha 1 1e99\n"), CORE_EINPUT, "overflows a float");
	T_EQ(parse("1 2\nalpha 1 2x\n"), CORE_EINPUT, "trailing junk");
	T_EQ(parse("1 2\n 1 2\n"), CORE_EINPUT, "no word");
	T_EQ(parse("1 2 3\nalpha 1 2\n"), CORE_EINPUT, "header of three");
	T_EQ(parse("1 2\nalpha 1 2\n"), CORE_OK, "minimal");

	/* The trainer's text: labels first, tokens as the model sees them. */
	vec_trainer_init(&tr);
	tr.text = open_memstream(&buf, &len);
	tr.label = "cs.CL x";
	vec_trainer_add(&tr, "Networks of networks");
	tr.label = NULL;
	vec_trainer_add(&tr, "Graphs");
	vec_trainer_add(&tr, "the of"); /* stop words only: no line */
	fclose(tr.text);
	tr.text = NULL;
	T_STREQ(buf, "__label__cs.CL_x network network\ngraph\n",
	    "labelled, stemmed, one paper a line");
	free(buf);
	vec_trainer_free(&tr);

	/* Loading from a file. */
	fd = mkstemp(path);
	T_OK(fd != -1, "temporary file");
	if (write(fd, good, strlen(good)) != (ssize_t)strlen(good))
		abort();
	close(fd);
	T_EQ(vec_wv_load(path, &wv), CORE_OK, "file loads");
	T_EQ(wv.n, 3, "file: three words");
	vec_wv_free(&wv);
	unlink(path);
	T_EQ(vec_wv_load(path, &wv), CORE_ESYS, "missing file");

	/*
	 * The blend: two terms with SVD rows, word vectors for one of them
	 * (and one word the model does not know); the last dims become the
	 * word vectors, scaled so they carry the share asked of the rows.
	 */
	memset(&m, 0, sizeof(m));
	m.nterms = 3;
	m.terms = core_xcalloc(3, sizeof(*m.terms));
	m.terms[0] = core_xstrdup("alpha");
	m.terms[1] = core_xstrdup("delta");
	m.terms[2] = core_xstrdup("gamma");
	m.idf = core_xcalloc(3, sizeof(*m.idf));
	m.idf[0] = m.idf[1] = m.idf[2] = 1;
	m.proj = core_xcalloc(3 * VEC_DIMS, sizeof(*m.proj));
	m.proj[0] = 1;
	m.proj[VEC_DIMS + 1] = 1;
	m.proj[VEC_DIMS - 1] = 9; /* overwritten by the blend */
	wv.n = 3;
	wv.dim = VEC_WV_DIMS;
	wv.words = core_xcalloc(3, sizeof(*wv.words));
	wv.words[0] = core_xstrdup("zeta");
	wv.words[1] = core_xstrdup("gamma");
	wv.words[2] = core_xstrdup("alpha");
	wv.v = core_xcalloc(3 * VEC_WV_DIMS, sizeof(*wv.v));
	for (j = 0; j < VEC_WV_DIMS; j++) {
		wv.v[VEC_WV_DIMS + j] = (float)(j % 2);
		wv.v[2 * VEC_WV_DIMS + j] = (float)(j % 3) + 1;
	}
	memset(&a, 0, sizeof(a));
	a.rows = 1;
	a.cols = 3;
	a.nnz = 1;
	a.ptr = core_xcalloc(2, sizeof(*a.ptr));
	a.col = core_xcalloc(1, sizeof(*a.col));
	a.val = core_xcalloc(1, sizeof(*a.val));
	a.ptr[1] = 1;
	a.col[0] = 0;
	a.val[0] = 1;
	vec_wv_blend(&m, &wv, &a, 0.3);
	T_EQ(m.wv_dims, VEC_WV_DIMS, "blended");
	for (i = 0; i < VEC_DIMS - VEC_WV_DIMS; i++)
		energy_svd += (double)m.proj[i] * m.proj[i];
	for (; i < VEC_DIMS; i++)
		energy_wv += (double)m.proj[i] * m.proj[i];
	T_OK(fabs(energy_wv / (energy_svd + energy_wv) - 0.3) < 1e-4,
	    "the word vectors carry the share asked");
	for (energy_wv = 0, i = VEC_DIMS - VEC_WV_DIMS; i < VEC_DIMS; i++)
		energy_wv += fabs(m.proj[VEC_DIMS + i]);
	T_OK(energy_wv == 0, "a term without a word vector gets zeros");
	T_OK(m.proj[VEC_DIMS + 1] == 1, "SVD dims kept");
	for (energy_wv = 0, i = VEC_DIMS - VEC_WV_DIMS; i < VEC_DIMS; i++)
		energy_wv += (double)m.proj[2 * VEC_DIMS + i] * m.proj[i];
	T_OK(energy_wv < 0,
	    "less their common direction: the two words "
	    "point apart");
	vec_wv_free(&wv);
	vec_csr_free(&a);
	vec_model_free(&m);
	return T_DONE();
}
