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
 * inv = (float)(1.0 / sqrt(nf)) on the lanes in @ok, 0 elsewhere.  x86's
 * packed square root and division are IEEE correctly rounded like the
 * scalar ones, and the conversion to float rounds to nearest like a cast,
 * so every lane gets the reference's float.  Elsewhere, lane by lane.
 */
static FD_TARGET inline void FD_V(inv_stddev)(const FD_V(fd_vd) *pnf, unsigned int ok,
					       FD_V(fd_vf) *inv)
{
#if defined(__x86_64__) && !defined(__clang__)
#if FD_VL == 8
	typedef double half __attribute__((vector_size(32)));
#define FD_SQRT_HALF __builtin_ia32_sqrtpd256
#else
	typedef double half __attribute__((vector_size(16)));
#define FD_SQRT_HALF __builtin_ia32_sqrtpd
#endif
	const FD_V(fd_vd) one = (FD_V(fd_vd)){ 0 } + 1.0;
	/* flat lanes get 1: no sqrt of a negative (out of row) or 0 lane */
	FD_V(fd_vd) nf = *pnf, r;
	half h[2];
	int l;

	for (l = 0; l < FD_VL; l++)
		if (!(ok >> l & 1))
			nf[l] = 1.0;
	memcpy(h, &nf, sizeof(h));
	h[0] = FD_SQRT_HALF(h[0]);
	h[1] = FD_SQRT_HALF(h[1]);
	memcpy(&r, h, sizeof(r));
	r = one / r;
	*inv = __builtin_convertvector(r, FD_V(fd_vf));
	for (l = 0; l < FD_VL; l++)
		if (!(ok >> l & 1))
			(*inv)[l] = 0;
#undef FD_SQRT_HALF
#else
	int l;

	for (l = 0; l < FD_VL; l++)
		if (ok >> l & 1)
			(*inv)[l] = (float)(1.0 / sqrt((*pnf)[l]));
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
	unsigned int bits = 0;
	int l;

	for (l = 0; l < FD_VL; l++)
		bits |= (unsigned int)(m[l] & 1) << l;
	return bits;
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

static FD_TARGET int FD_V(scan_level_vector)(struct facedet_ctx *ctx, struct level *lv)
{
	const struct facedet_model *m = ctx->m;
	const int S = ctx->stride, *no = ctx->nofs;
	const double area = ctx->narea, t = MIN_STDDEV * area;
	int y, i0, l;

	for (y = 0; y < lv->nrows; y++) {
		const size_t row = (size_t)y * lv->step * S;
		unsigned int skip = 0;	/* the reference skips this chunk's first position */

		for (i0 = 0; i0 < lv->npos; i0 += FD_VL) {
			const int32_t *p = ctx->sum + row + i0;
			const uint32_t *q = ctx->sq + row + i0;
			FD_V(fd_vi) vsum = FD_VRECT(p, no);
			/* < 2^31: see window_var(), so a signed lane holds it */
			FD_V(fd_vi) vsq = (FD_V(fd_vi))(FD_V(vldu)(q + no[0]) - FD_V(vldu)(q + no[1]) -
					    FD_V(vldu)(q + no[2]) + FD_V(vldu)(q + no[3]));
			FD_V(fd_vd) ds = __builtin_convertvector(vsum, FD_V(fd_vd));
			FD_V(fd_vd) nf = area * __builtin_convertvector(vsq, FD_V(fd_vd)) - ds * ds;
			FD_V(fd_vf) inv = { 0 };
			unsigned int ok = 0, pass, rej, alive, visited;
			int si, end = lv->npos - i0 < FD_VL ? lv->npos - i0 : FD_VL;

			/* window_var() on the lanes: see there for nf <= T^2 */
			for (l = 0; l < FD_VL; l++)
				ok |= (unsigned int)(nf[l] > t * t) << l;
			if (ok)
				FD_V(inv_stddev)(&nf, ok, &inv);
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
			for (si = 1; si < m->nstages && alive; si++)
				alive &= FD_V(chunk_stage)(ctx, p, &inv, si);
			for (l = 0; alive >> l; l++) {
				if (!(alive >> l & 1))
					continue;
				if (si < m->nstages && eval_fast(ctx, p + l, inv[l], si) <= 0)
					continue;
				if (push_raw(ctx, iround((i0 + l) * lv->step * lv->factor),
					     iround(y * lv->step * lv->factor), lv->ww, lv->wh))
					return -ENOMEM;
			}
		}
	}
	return 0;
}

#undef FD_VRECT
