/* SPDX-License-Identifier: MIT */
/*
 * The vector scan, a template: detect.c includes it once per vector width
 * with FD_VL (lanes: 4 or 8), FD_V(name) (names this instance) and
 * FD_TARGET (function attributes, e.g. target("avx2")) defined.  See the
 * comment above its inclusion in detect.c.  No include guard, on purpose.
 */
typedef int32_t FD_V(fd_vi) __attribute__((vector_size(FD_VL * 4)));
typedef uint32_t FD_V(fd_vu) __attribute__((vector_size(FD_VL * 4)));
typedef float FD_V(fd_vf) __attribute__((vector_size(FD_VL * 4)));
typedef double FD_V(fd_vd) __attribute__((vector_size(FD_VL * 8)));

/*
 * window_var() on a chunk: the mask of the lanes whose nf > @tt (T^2, see
 * there), and inv = (float)(1.0 / sqrt(nf)) on them, 0 elsewhere.  x86's
 * packed compare, square root and division work on halves of the chunk,
 * the widest double vectors it has (a whole one would be split lane by
 * lane); they are IEEE correctly rounded like the scalar ones, and the
 * conversion to float rounds to nearest like a cast, so every lane gets
 * the reference's float.  Elsewhere, lane by lane.
 */
static FD_TARGET inline unsigned int FD_V(inv_stddev)(const FD_V(fd_vd) *pnf, double tt,
						      FD_V(fd_vf) *inv)
{
#if defined(__x86_64__) && !defined(__clang__)
	typedef double half __attribute__((vector_size(FD_VL * 4)));
	typedef int64_t halfm __attribute__((vector_size(FD_VL * 4)));
	typedef float halff __attribute__((vector_size(FD_VL * 2)));
	const half one = (half){ 0 } + 1.0;
	halff f[2];
	half h[2];
	halfm m[2];
	unsigned int ok;
	int i;

	/* split by memcpy, not __builtin_shufflevector (GCC 12 and later only) */
	memcpy(h, pnf, sizeof(h));
	m[0] = h[0] > tt;
	m[1] = h[1] > tt;
#if FD_VL == 8
	ok = (unsigned int)__builtin_ia32_movmskpd256((half)m[0]) |
	     (unsigned int)__builtin_ia32_movmskpd256((half)m[1]) << 4;
#define FD_SQRT_HALF __builtin_ia32_sqrtpd256
#else
	ok = (unsigned int)__builtin_ia32_movmskpd((half)m[0]) |
	     (unsigned int)__builtin_ia32_movmskpd((half)m[1]) << 2;
#define FD_SQRT_HALF __builtin_ia32_sqrtpd
#endif

	if (!ok) {
		*inv = (FD_V(fd_vf)){ 0 };
		return 0;
	}
	for (i = 0; i < 2; i++) {
		/* other lanes get 1 (no sqrt of a negative or 0 lane), then 0 */
		h[i] = (half)(((halfm)h[i] & m[i]) | ((halfm)one & ~m[i]));
		h[i] = (half)((halfm)(one / FD_SQRT_HALF(h[i])) & m[i]);
		f[i] = __builtin_convertvector(h[i], halff);
	}
#undef FD_SQRT_HALF
	memcpy(inv, f, sizeof(f));
	return ok;
#else
	unsigned int ok = 0;
	int l;

	for (l = 0; l < FD_VL; l++) {
		ok |= (unsigned int)((*pnf)[l] > tt) << l;
		(*inv)[l] = ok >> l & 1 ? (float)(1.0 / sqrt((*pnf)[l])) : 0;
	}
	return ok;
#endif
}

static FD_TARGET inline FD_V(fd_vi) FD_V(vld)(const int32_t *p)
{
	FD_V(fd_vi) v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static FD_TARGET inline FD_V(fd_vu) FD_V(vldu)(const uint32_t *p)
{
	FD_V(fd_vu) v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#define FD_VRECT(p, o) (FD_V(vld)((p) + (o)[0]) - FD_V(vld)((p) + (o)[1]) - FD_V(vld)((p) + (o)[2]) + FD_V(vld)((p) + (o)[3]))

/* A broadcast that keeps the sign of -0.0f (0 + -0.0f would not). */
static FD_TARGET inline FD_V(fd_vf) FD_V(vsplat)(float f)
{
#if FD_VL == 8
	return (FD_V(fd_vf)){ f, f, f, f, f, f, f, f };
#else
	return (FD_V(fd_vf)){ f, f, f, f };
#endif
}

/* Lanewise m ? a : b for a mask m of all-ones / all-zeros lanes. */
static FD_TARGET inline FD_V(fd_vf) FD_V(vsel)(FD_V(fd_vi) m, FD_V(fd_vf) a, FD_V(fd_vf) b)
{
	return (FD_V(fd_vf))(((FD_V(fd_vi))a & m) | ((FD_V(fd_vi))b & ~m));
}

static FD_TARGET inline FD_V(fd_vf) FD_V(vcvt)(FD_V(fd_vi) v)
{
	return __builtin_convertvector(v, FD_V(fd_vf));
}

/*
 * A feature's sum in float.  Each rectangle sum and weighted sum is an
 * exact integer below 2^24 (see struct fd_ptree), so this float equals the
 * int32 sum of pfeature() converted once; multiplying in float spares SSE2
 * its missing 32-bit vector multiply.
 */
static FD_TARGET inline FD_V(fd_vf) FD_V(vfeature)(const int32_t *p, const struct fd_pnode *n)
{
	FD_V(fd_vf) v = n->fweight[0] * FD_V(vcvt)(FD_VRECT(p, n->ofs[0])) +
		  n->fweight[1] * FD_V(vcvt)(FD_VRECT(p, n->ofs[1]));

	if (n->nrects > 2)
		v += n->fweight[2] * FD_V(vcvt)(FD_VRECT(p, n->ofs[2]));
	return v;
}

static FD_TARGET inline unsigned int FD_V(lane_bits)(FD_V(fd_vi) m)
{
#if defined(__x86_64__) && !defined(__clang__)
	/* lanes are all-ones or all-zeros: their sign bits */
#if FD_VL == 8
	return (unsigned int)__builtin_ia32_movmskps256((FD_V(fd_vf))m);
#else
	return (unsigned int)__builtin_ia32_movmskps((FD_V(fd_vf))m);
#endif
#else
	unsigned int bits = 0;
	int l;

	for (l = 0; l < FD_VL; l++)
		bits |= (unsigned int)(m[l] & 1) << l;
	return bits;
#endif
}

/*
 * Stage @si on a chunk: the bit mask of the lanes that pass it.  (Vectors
 * only go by pointer between non-inline functions: no vector ABI issues.)
 */
static FD_TARGET unsigned int FD_V(chunk_stage)(const struct facedet_ctx *ctx, const int32_t *p,
				const FD_V(fd_vf) *pinv, int si)
{
	const FD_V(fd_vf) inv = *pinv;
	const struct facedet_model *m = ctx->m;
	const struct fd_ptree *t = &ctx->ptrees[m->stages[si].first_tree];
	const struct fd_ptree *tend = t + m->stages[si].ntrees;
	FD_V(fd_vf) acc = { 0 };

	for (; t < tend; t++) {
		FD_V(fd_vi) lt0 = FD_V(vfeature)(p, &t->n[0]) * inv < FD_V(vsplat)(t->n[0].threshold);
		FD_V(fd_vi) lt1 = FD_V(vfeature)(p, &t->n[1]) * inv < FD_V(vsplat)(t->n[1].threshold);
		FD_V(fd_vi) to_node = lt0 ^ t->node_xor;
		FD_V(fd_vf) second = FD_V(vsel)(lt1, FD_V(vsplat)(t->leaf_lt), FD_V(vsplat)(t->leaf_ge));

		acc += FD_V(vsel)(to_node, second, FD_V(vsplat)(t->leaf_root));
	}
	return FD_V(lane_bits)(~(acc < FD_V(vsplat)(ctx->stage_thr[si])));
}

/*
 * Stage @si on the live windows of a row (@p: its first position): each
 * chunk starts at the first live position not yet done, so a chunk holds
 * as many live windows as any FD_VL consecutive positions can, and none
 * is evaluated twice.  Return: whether any window lives on.
 */
static FD_TARGET int FD_V(row_stage)(const struct facedet_ctx *ctx, const int32_t *p,
				     uint64_t *live, int nw, int si)
{
	int i, any = 0;

	for (i = live_next(live, nw, 0); i >= 0; i = live_next(live, nw, i + FD_VL)) {
		FD_V(fd_vf) inv;
		unsigned int pass;

		memcpy(&inv, ctx->row_inv + i, sizeof(inv));
		pass = FD_V(chunk_stage)(ctx, p + i, &inv, si);
		live_clear(live, i, live_get(live, i, FD_VL) & ~pass);
		any |= live_get(live, i, FD_VL) != 0;
	}
	return any;
}

static FD_TARGET int FD_V(scan_level_vector)(struct facedet_ctx *ctx, struct level *lv)
{
	const struct facedet_model *m = ctx->m;
	const int S = ctx->stride, *no = ctx->nofs, nw = (lv->npos + 63) / 64;
	const double area = ctx->narea, t = MIN_STDDEV * area;
	uint64_t *live = ctx->live;
	int y, i0;

	for (y = 0; y < lv->nrows; y++) {
		const size_t row = (size_t)y * lv->step * S;
		unsigned int skip = 0;	/* the reference skips this chunk's first position */
		int si, any = 0, i;

		/* and the spare word live_get() may read */
		memset(live, 0, (size_t)(nw + 1) * sizeof(*live));
		for (i0 = 0; i0 < lv->npos; i0 += FD_VL) {
			const int32_t *p = ctx->sum + row + i0;
			const uint32_t *q = ctx->sq + row + i0;
			FD_V(fd_vi) vsum = FD_VRECT(p, no);
			/* < 2^31: see window_var(), so a signed lane holds it */
			FD_V(fd_vi) vsq = (FD_V(fd_vi))(FD_V(vldu)(q + no[0]) - FD_V(vldu)(q + no[1]) -
					    FD_V(vldu)(q + no[2]) + FD_V(vldu)(q + no[3]));
			FD_V(fd_vd) ds = __builtin_convertvector(vsum, FD_V(fd_vd));
			FD_V(fd_vd) nf = area * __builtin_convertvector(vsq, FD_V(fd_vd)) - ds * ds;
			FD_V(fd_vf) inv;
			unsigned int ok, pass, rej, alive, visited;
			int end = lv->npos - i0 < FD_VL ? lv->npos - i0 : FD_VL;

			ok = FD_V(inv_stddev)(&nf, t * t, &inv);
			pass = ok ? FD_V(chunk_stage)(ctx, p, &inv, 0) : 0;
			/*
			 * The positions the reference visits (fd_chain_init())
			 * and, for the next chunk, whether it skips its first.
			 */
			rej = ok & ~pass;
			visited = ctx->chain[skip][rej];
			skip = (visited & rej) >> (FD_VL - 1) & 1;
			visited &= (1u << end) - 1;
			ctx->stats.windows += (unsigned int)__builtin_popcount(visited);
			alive = visited & ok & pass;
			if (alive)
				alive &= fd_keep_lanes(lv, y, i0, end);
			memcpy(ctx->row_inv + i0, &inv, sizeof(inv));
			/* FD_VL divides 64: a chunk's bits lie in one word */
			live[i0 >> 6] |= (uint64_t)alive << (i0 & 63);
			any |= alive != 0;
		}
		/* the later stages, stage by stage over the row's survivors */
		for (si = 1; si < m->nstages && any; si++)
			any = FD_V(row_stage)(ctx, ctx->sum + row, live, nw, si);
		for (i = any ? live_next(live, nw, 0) : -1; i >= 0; i = live_next(live, nw, i + 1))
			if (push_raw(ctx, iround(i * lv->step * lv->factor),
				     iround(y * lv->step * lv->factor), lv->ww, lv->wh))
				return -ENOMEM;
	}
	return 0;
}

#undef FD_VRECT
