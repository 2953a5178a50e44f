/*
 * TI OMAP4 Face Detection module (FDIF)
 *
 * Register model of the FDIF (OMAP4 TRM chapter 9, as used by the 2011
 * Linux driver) with a real face detector behind it: RUN DMA-reads the
 * 320x240 8-bit picture at PICADDR, the detector (hw/misc/facedet) runs on
 * host worker threads, and the faces it finds land in the result registers,
 * followed by FINISH and the interrupt.  The programming model, timing
 * model and fault injection are specified in docs/fdif-device.md of the
 * fdif project.
 *
 * Copyright (c) 2026 The fdif developers
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/resettable.h"
#include "hw/misc/omap4_fdif.h"
#include "exec/address-spaces.h"
#include "migration/vmstate.h"
#include "sysemu/dma.h"
#include "sysemu/replay.h"
#include "sysemu/runstate.h"
#include "block/aio.h"
#include "block/thread-pool.h"
#include "trace.h"

#include "facedet/facedet.h"

/* Registers (byte offsets) */
#define R_REVISION          0x000
#define R_HWINFO            0x004
#define R_SYSCONFIG         0x010
#define R_IRQSTATUS_RAW(j)  (0x024 + (j) * 0x10)
#define R_IRQSTATUS(j)      (0x028 + (j) * 0x10)
#define R_IRQENABLE_SET(j)  (0x02c + (j) * 0x10)
#define R_IRQENABLE_CLR(j)  (0x030 + (j) * 0x10)
#define R_PICADDR           0x060
#define R_FDIF_CTRL         0x064
#define R_WKADDR            0x068
#define R_FD_CTRL           0x080
#define R_FD_DNUM           0x084
#define R_FD_DCOND          0x088
#define R_FD_STARTX         0x08c
#define R_FD_STARTY         0x090
#define R_FD_SIZEX          0x094
#define R_FD_SIZEY          0x098
#define R_FD_LHIT           0x09c
#define R_FD_RESULT(i)      (0x160 + (i) * 0x10)
#define R_FD_RESULT_END     R_FD_RESULT(OMAP4_FDIF_MAX_FACES)
/* QEMU extension block, not in the TRM */
#define R_EMU_ID            0xf00
#define R_EMU_FRAME_TIME    0xf04
#define R_EMU_FAULT         0xf08
#define R_EMU_FAULT_JOBS    0xf0c
#define R_EMU_JOBS          0xf10
#define R_EMU_STANDBY_ACCESSES 0xf14

#define FDIF_REVISION_VALUE 0x50000201  /* scheme 1, major 2, minor 1 */
/* HWINFO: max faces 35 (5:0), picture 320/16 (13:6) x 240/16 (21:14) */
#define FDIF_HWINFO_VALUE   (OMAP4_FDIF_MAX_FACES | (20 << 6) | (15 << 14))
#define EMU_ID_VALUE        0x46444651  /* "QFDF" */

#define SYSCONFIG_SOFTRESET 0x01
#define SYSCONFIG_MASK      0x3c        /* SIDLEMODE 3:2, MIDLEMODE 5:4 */

#define IRQ_ERR             (1u << 0)
#define IRQ_FINISH          (1u << 8)
#define IRQ_MASK            (IRQ_ERR | IRQ_FINISH)

#define ADDR_MASK           0xffffffe0u /* 32-byte aligned, bits 4:0 read 0 */
#define OMAP4_FDIF_DMA_LIMIT (1ULL << 32)  /* 32-bit address registers */

#define FDIF_CTRL_MSTANDBY  (1u << 0)
#define FDIF_CTRL_MAX_TAGS  (0xfu << 1)
#define FDIF_CTRL_HDSHK     (1u << 5)   /* read-only: in standby */
#define FDIF_CTRL_MASK      (FDIF_CTRL_MSTANDBY | FDIF_CTRL_MAX_TAGS)
#define FDIF_CTRL_RESET     (0xau << 1)

#define FD_CTRL_SRST        (1u << 0)
#define FD_CTRL_RUN         (1u << 1)
#define FD_CTRL_FINISH      (1u << 2)

#define DCOND_MINSIZE       0x3
#define DCOND_DIR_SHIFT     2
#define DCOND_MASK          0xf

#define STARTX_MAX          160
#define STARTY_MAX          120
#define ROI_MIN             20
#define LHIT_MAX            9

/* the work area header the device keeps at WKADDR (little endian) */
#define WORK_MAGIC          0x4b574446  /* "FDWK" */
#define WORK_VERSION        1
#define WORK_HDR_SIZE       64
#define WORK_FACE_SIZE      16
#define WORK_MAX_FACES      \
    ((OMAP4_FDIF_WORK_SIZE - WORK_HDR_SIZE) / WORK_FACE_SIZE)

static const char *const fault_names[OMAP4_FDIF_FAULT__MAX] = {
    [OMAP4_FDIF_FAULT_NONE] = "none",
    [OMAP4_FDIF_FAULT_HANG] = "hang",
    [OMAP4_FDIF_FAULT_ERR] = "err",
    [OMAP4_FDIF_FAULT_SPURIOUS] = "spurious",
    [OMAP4_FDIF_FAULT_DMA] = "dma",
    [OMAP4_FDIF_FAULT_LOST_IRQ] = "lost-irq",
    [OMAP4_FDIF_FAULT_STUCK_RESET] = "stuck-reset",
    [OMAP4_FDIF_FAULT_IRQ_IN_STANDBY] = "irq-in-standby",
};

/* One worker thread of a job: which job, and which of its contexts. */
typedef struct Omap4FdifSlice {
    Omap4FdifJob *job;
    unsigned int index;
} Omap4FdifSlice;

/*
 * One detection on the thread pool, cut into the units of @plan and run by
 * @nthreads workers, each on its own context. The workers touch only this:
 * they take units in turn from @next_unit and leave each unit's output in
 * its part; the last one out merges the parts in plan order, so the result
 * does not depend on the number of workers or on which ran what, and the
 * merge (its cost grows with the picture's hits) stays off the BQL.
 * @abort is set (atomically) by the main loop when it discards the job.
 */
struct Omap4FdifJob {
    Omap4FdifState *s;
    uint64_t generation;
    bool abort;
    unsigned int nthreads;
    unsigned int unfinished;    /* atomic: workers still in the job */
    unsigned int next_unit;     /* atomic */
    unsigned int units_done;    /* atomic: units that ran to their end */
    int err;                    /* atomic: a unit's first error */
    struct facedet_ctx *ctx[OMAP4_FDIF_MAX_THREADS];  /* [0] merges */
    Omap4FdifSlice slice[OMAP4_FDIF_MAX_THREADS];
    struct facedet_plan plan;
    struct facedet_part *part[FACEDET_MAX_UNITS];
    struct facedet_params params;
    uint8_t picture[OMAP4_FDIF_PIC_WIDTH * OMAP4_FDIF_PIC_HEIGHT];
    struct facedet_face faces[FACEDET_MAX_FACES];
    int nfaces;                 /* or -errno */
};

static void omap4_fdif_update_irq(Omap4FdifState *s)
{
    int j = OMAP4_FDIF_MPU_LINE;
    bool level = (s->irq_raw[j] & s->irq_enable[j]) || s->spurious ||
                 s->standby_pulse;

    trace_omap4_fdif_irq(s->irq_raw[j], s->irq_enable[j], level);
    qemu_set_irq(s->irq, level);
}

/* An event: latch it in every line's raw status. */
static void omap4_fdif_raise(Omap4FdifState *s, uint32_t bits)
{
    int j;

    for (j = 0; j < OMAP4_FDIF_IRQ_LINES; j++) {
        s->irq_raw[j] |= bits;
    }
    omap4_fdif_update_irq(s);
}

static void omap4_fdif_error(Omap4FdifState *s, const char *why)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s\n", TYPE_OMAP4_FDIF, why);
    trace_omap4_fdif_error(why);
    s->busy = false;
    s->dnum = 0;
    omap4_fdif_raise(s, IRQ_ERR);
}

static struct facedet_ctx *omap4_fdif_get_ctx(Omap4FdifState *s)
{
    GSList *pool = s->ctx_pool;
    struct facedet_ctx *ctx;

    if (pool) {
        ctx = pool->data;
        s->ctx_pool = g_slist_delete_link(pool, pool);
        return ctx;
    }
    ctx = facedet_ctx_new(s->model, OMAP4_FDIF_PIC_WIDTH,
                          OMAP4_FDIF_PIC_HEIGHT);
    if (ctx) {
        facedet_ctx_set_eval(ctx, s->eval);
        s->contexts++;
    }
    return ctx;
}

/* Keep as many idle contexts as a job uses; more are freed. */
static void omap4_fdif_put_ctx(Omap4FdifState *s, struct facedet_ctx *ctx)
{
    if (g_slist_length(s->ctx_pool) < s->threads) {
        facedet_ctx_set_abort(ctx, NULL, NULL);
        s->ctx_pool = g_slist_prepend(s->ctx_pool, ctx);
    } else {
        facedet_ctx_free(ctx);
        s->contexts--;
    }
}

static void omap4_fdif_put_job(Omap4FdifJob *job)
{
    unsigned int i;

    for (i = 0; i < OMAP4_FDIF_MAX_THREADS; i++) {
        if (job->ctx[i]) {
            omap4_fdif_put_ctx(job->s, job->ctx[i]);
        }
    }
    for (i = 0; i < FACEDET_MAX_UNITS; i++) {
        facedet_part_free(job->part[i]);
    }
    g_free(job);
}

/*
 * Forget the host side of the job in flight: a worker still running is
 * told to stop and its result will be dropped, a job waiting for a worker
 * and a finished result are freed.
 */
static void omap4_fdif_drop_jobs(Omap4FdifState *s)
{
    s->generation++;
    if (s->worker && !s->worker->abort) {
        trace_omap4_fdif_abort();
        qatomic_set(&s->worker->abort, true);
    }
    if (s->pending) {
        omap4_fdif_put_job(s->pending);
        s->pending = NULL;
    }
    if (s->result) {
        omap4_fdif_put_job(s->result);
        s->result = NULL;
    }
    s->need_worker = false;
}

/* Discard the job in flight: it never finishes. */
static void omap4_fdif_cancel(Omap4FdifState *s)
{
    if (s->busy) {
        trace_omap4_fdif_cancel();
    }
    omap4_fdif_drop_jobs(s);
    s->busy = false;
    s->model_done = false;
    s->spurious = false;
    s->spurious_done = false;
    timer_del(&s->timer);
}

/* The module's registers to their reset values; the IRQ line is not set. */
static void omap4_fdif_reset_regs(Omap4FdifState *s)
{
    int j;

    omap4_fdif_cancel(s);
    s->reset_stuck = false;
    s->standby_pulse = false;
    timer_del(&s->pulse_timer);
    s->sysconfig = 0;
    for (j = 0; j < OMAP4_FDIF_IRQ_LINES; j++) {
        s->irq_raw[j] = 0;
        s->irq_enable[j] = 0;
    }
    s->picaddr = 0;
    s->wkaddr = 0;
    s->fdif_ctrl = FDIF_CTRL_RESET;
    s->jobs = 0;
    s->fd_ctrl = 0;
    s->dnum = 0;
    s->dcond = 0;
    s->startx = 0;
    s->starty = 0;
    s->sizex = OMAP4_FDIF_PIC_WIDTH;
    s->sizey = OMAP4_FDIF_PIC_HEIGHT;
    s->lhit = FACEDET_DEFAULT_LHIT;
    memset(s->faces, 0, sizeof(s->faces));
}

/* Core reset (FD_CTRL.SRST): the detection core only. */
static void omap4_fdif_core_reset(Omap4FdifState *s)
{
    omap4_fdif_cancel(s);
    s->fd_ctrl = 0;
    s->dnum = 0;
    memset(s->faces, 0, sizeof(s->faces));
}

static uint64_t omap4_fdif_frame_ns(Omap4FdifState *s)
{
    uint64_t area = (uint64_t)s->sizex * s->sizey;

    /* the engine's time scales with the area it scans */
    return (uint64_t)s->frame_time_us * 1000 * area /
           (OMAP4_FDIF_PIC_WIDTH * OMAP4_FDIF_PIC_HEIGHT);
}

/*
 * DMA goes to RAM only, below 4 GiB: the whole of [@addr, @addr + @len)
 * must lie under 4 GiB (a 32-bit engine does not wrap to, or carry into,
 * 0x1_0000_0000) and be RAM (and
 * writable if @is_write) in the device's address space. A picture or a
 * work area on MMIO (the device's own registers included), ROM, a ROM
 * device or off the end of RAM is refused.
 */
static bool omap4_fdif_dma_ok(Omap4FdifState *s, const char *what,
                              hwaddr addr, hwaddr len, bool is_write)
{
    hwaddr a = addr, left = len;

    /* the address registers are 32 bits: the engine cannot go past 4 GiB */
    if (addr + len > OMAP4_FDIF_DMA_LIMIT) {
        trace_omap4_fdif_dma_refused(what, addr, len);
        qemu_log_mask(LOG_GUEST_ERROR, "%s: %s 0x%" HWADDR_PRIx " + 0x%"
                      HWADDR_PRIx " runs past the 4 GiB the engine "
                      "addresses: refused\n", TYPE_OMAP4_FDIF, what, addr,
                      len);
        return false;
    }
    RCU_READ_LOCK_GUARD();
    while (left) {
        hwaddr xlat, l = left;
        MemoryRegion *mr;

        mr = address_space_translate(&s->dma_as, a, &xlat, &l, is_write,
                                     MEMTXATTRS_UNSPECIFIED);
        if (!l || !memory_region_is_ram(mr) ||
            memory_region_is_ram_device(mr) ||
            (is_write && memory_region_is_rom(mr))) {
            trace_omap4_fdif_dma_refused(what, addr, len);
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s 0x%" HWADDR_PRIx " + 0x%"
                          HWADDR_PRIx " is not %sRAM (at 0x%" HWADDR_PRIx
                          "): refused\n", TYPE_OMAP4_FDIF, what, addr, len,
                          is_write ? "writable " : "", a);
            return false;
        }
        a += l;
        left -= l;
    }
    return true;
}

/*
 * The work area: the engine keeps a header with a job counter there (read,
 * then written back: the area must be mapped for both directions) and
 * dumps the faces it found before the 35-face cap.
 */
static bool omap4_fdif_write_work(Omap4FdifState *s, Omap4FdifJob *job)
{
    const struct facedet_stats *st = facedet_ctx_stats(job->ctx[0]);
    const struct facedet_face *all;
    uint8_t hdr[WORK_HDR_SIZE];
    uint32_t runs = 0, n, i;
    MemTxResult r;

    r = dma_memory_read(&s->dma_as, s->wkaddr, hdr, sizeof(hdr),
                        MEMTXATTRS_UNSPECIFIED);
    if (r != MEMTX_OK) {
        return false;
    }
    if (ldl_le_p(hdr) == WORK_MAGIC && ldl_le_p(hdr + 4) == WORK_VERSION) {
        runs = ldl_le_p(hdr + 8);
    }
    n = facedet_ctx_candidates(job->ctx[0], &all);
    n = MIN(n, WORK_MAX_FACES);

    memset(hdr, 0, sizeof(hdr));
    stl_le_p(hdr, WORK_MAGIC);
    stl_le_p(hdr + 4, WORK_VERSION);
    stl_le_p(hdr + 8, runs + 1);
    stl_le_p(hdr + 12, st->scans);
    stl_le_p(hdr + 16, st->windows);
    stl_le_p(hdr + 20, st->raw_hits);
    stl_le_p(hdr + 24, st->groups);
    stl_le_p(hdr + 28, n);
    r = dma_memory_write(&s->dma_as, s->wkaddr, hdr, sizeof(hdr),
                         MEMTXATTRS_UNSPECIFIED);
    for (i = 0; i < n && r == MEMTX_OK; i++) {
        uint8_t rec[WORK_FACE_SIZE];

        stw_le_p(rec, all[i].cx);
        stw_le_p(rec + 2, all[i].cy);
        stw_le_p(rec + 4, all[i].size);
        stw_le_p(rec + 6, all[i].angle);
        stw_le_p(rec + 8, all[i].confidence);
        stw_le_p(rec + 10, 0);
        stl_le_p(rec + 12, all[i].hits);
        r = dma_memory_write(&s->dma_as,
                             s->wkaddr + WORK_HDR_SIZE + i * WORK_FACE_SIZE,
                             rec, sizeof(rec), MEMTXATTRS_UNSPECIFIED);
    }
    return r == MEMTX_OK;
}

/*
 * The TRM gives no order for the result registers; a raster engine meets
 * its faces top to bottom, left to right, so that is the order the model
 * reports the kept faces in (the cap keeps the most confident ones).  It
 * is not the order the driver's uAPI promises: the driver must sort.
 */
static int omap4_fdif_face_cmp(const void *a, const void *b)
{
    const Omap4FdifFace *x = a, *y = b;

    if (x->centery != y->centery) {
        return x->centery < y->centery ? -1 : 1;
    }
    return x->centerx < y->centerx ? -1 : x->centerx > y->centerx;
}

/* Both the worker and the timing model are done: publish the results. */
static void omap4_fdif_complete(Omap4FdifState *s)
{
    Omap4FdifJob *job = s->result;
    int i;

    s->result = NULL;
    s->model_done = false;
    if (s->job_fault == OMAP4_FDIF_FAULT_ERR) {
        omap4_fdif_error(s, "injected fault: ERR");
        goto out;
    }
    if (job->nfaces < 0) {
        omap4_fdif_error(s, "detector failed");
        goto out;
    }
    /* checked at RUN; again, in case the memory map changed since */
    if (!omap4_fdif_dma_ok(s, "WKADDR", s->wkaddr, OMAP4_FDIF_WORK_SIZE,
                           true) ||
        !omap4_fdif_write_work(s, job)) {
        omap4_fdif_error(s, "DMA to the work area failed (bad WKADDR)");
        goto out;
    }
    memset(s->faces, 0, sizeof(s->faces));
    for (i = 0; i < job->nfaces; i++) {
        const struct facedet_face *f = &job->faces[i];

        s->faces[i].centerx = f->cx & 0x1ff;
        s->faces[i].centery = f->cy & 0xff;
        s->faces[i].confsize = MIN(f->size, 0xff) | (f->confidence & 0xf) << 8;
        s->faces[i].angle = f->angle & 0x1ff;
    }
    qsort(s->faces, job->nfaces, sizeof(s->faces[0]), omap4_fdif_face_cmp);
    s->dnum = job->nfaces;
    s->busy = false;
    s->fd_ctrl |= FD_CTRL_FINISH;
    s->jobs++;
    trace_omap4_fdif_finish(s->dnum, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) -
                                     s->start_ns);
    if (s->job_fault == OMAP4_FDIF_FAULT_LOST_IRQ) {
        int j;

        /* a lost interrupt: in IRQSTATUS_RAW, but the line stays low */
        for (j = 0; j < OMAP4_FDIF_IRQ_LINES; j++) {
            s->irq_raw[j] |= IRQ_FINISH;
        }
        goto out;
    }
    omap4_fdif_raise(s, IRQ_FINISH);
out:
    omap4_fdif_put_job(job);
}

/*
 * Publish the result once the worker and the timing model are both done,
 * and only while the VM runs: a result that arrives while it is stopped
 * (paused, or migrated away) waits for the VM run-state handler.
 */
static void omap4_fdif_try_complete(Omap4FdifState *s)
{
    if (!s->busy || !s->result || !s->model_done ||
        s->job_fault == OMAP4_FDIF_FAULT_HANG) {
        return;     /* a hung job's result is held until a reset */
    }
    if (!runstate_is_running()) {
        trace_omap4_fdif_deferred();
        return;
    }
    omap4_fdif_complete(s);
}

static void omap4_fdif_timer(void *opaque)
{
    Omap4FdifState *s = opaque;

    if (!s->busy || s->job_fault == OMAP4_FDIF_FAULT_HANG) {
        return;
    }
    if (s->job_fault == OMAP4_FDIF_FAULT_SPURIOUS && !s->spurious_done) {
        /* an interrupt with nothing in IRQSTATUS; the job goes on */
        s->spurious = true;
        s->spurious_done = true;
        omap4_fdif_update_irq(s);
        timer_mod(&s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  omap4_fdif_frame_ns(s));
        return;
    }
    s->model_done = true;
    omap4_fdif_try_complete(s);
}

static int omap4_fdif_should_abort(void *opaque)
{
    Omap4FdifJob *job = opaque;

    return qatomic_read(&job->abort);
}

/*
 * Runs on a thread-pool worker, without the BQL: touches only its job and
 * its own context. Takes the job's units in turn until none is left (or
 * one failed, or the job was discarded); the last worker out merges.
 */
static int omap4_fdif_worker(void *opaque)
{
    Omap4FdifSlice *slice = opaque;
    Omap4FdifJob *job = slice->job;
    unsigned int unit;
    int r;

    while (!qatomic_read(&job->err) && !qatomic_read(&job->abort) &&
           (unit = qatomic_fetch_inc(&job->next_unit)) < job->plan.nunits) {
        r = facedet_run_unit(job->ctx[slice->index], job->picture,
                             OMAP4_FDIF_PIC_WIDTH, &job->plan, unit,
                             job->part[unit]);
        if (r < 0) {
            qatomic_cmpxchg(&job->err, 0, r);
        } else {
            qatomic_inc(&job->units_done);
        }
    }
    /* every other worker has left its context, ctx[0] too */
    if (qatomic_fetch_dec(&job->unfinished) == 1) {
        r = qatomic_read(&job->err);
        if (!r && qatomic_read(&job->abort)) {
            r = -ECANCELED;     /* dropped anyway: no merge */
        }
        job->nfaces = r ? r : facedet_merge(job->ctx[0], &job->plan,
                                            job->part, job->faces);
    }
    return 0;
}

static void omap4_fdif_worker_done(void *opaque, int ret);

/*
 * Plan @job and get what its workers need: 0, -ENOMEM, or the detector's
 * refusal of the plan (the registers were checked at RUN, so none is
 * expected).
 */
static int omap4_fdif_prepare(Omap4FdifState *s, Omap4FdifJob *job)
{
    unsigned int i, bands = MIN(s->threads, FACEDET_MAX_BANDS);
    int r;

    job->ctx[0] = omap4_fdif_get_ctx(s);
    if (!job->ctx[0]) {
        return -ENOMEM;
    }
    r = facedet_plan_init(job->ctx[0], OMAP4_FDIF_PIC_WIDTH,
                          OMAP4_FDIF_PIC_HEIGHT, &job->params, bands,
                          &job->plan);
    if (r) {
        return r;
    }
    /* no more workers (and contexts) than units */
    job->nthreads = MAX(1, MIN(s->threads, job->plan.nunits));
    for (i = 0; i < job->nthreads; i++) {
        if (i) {
            job->ctx[i] = omap4_fdif_get_ctx(s);
            if (!job->ctx[i]) {
                return -ENOMEM;
            }
        }
        facedet_ctx_set_abort(job->ctx[i], omap4_fdif_should_abort, job);
        job->slice[i].job = job;
        job->slice[i].index = i;
    }
    for (i = 0; i < job->plan.nunits; i++) {
        job->part[i] = facedet_part_new();
        if (!job->part[i]) {
            return -ENOMEM;
        }
    }
    return 0;
}

/* Hand @job to the thread pool: its workers are the device's only ones. */
static void omap4_fdif_submit(Omap4FdifState *s, Omap4FdifJob *job)
{
    ThreadPool *pool = aio_get_thread_pool(qemu_get_aio_context());
    unsigned int i;
    int r;

    assert(!s->worker);
    r = omap4_fdif_prepare(s, job);
    if (r) {
        omap4_fdif_put_job(job);
        omap4_fdif_drop_jobs(s);
        s->model_done = false;
        timer_del(&s->timer);
        omap4_fdif_error(s, r == -ENOMEM ? "out of memory for the detector" :
                         "the detector refused the job");
        return;
    }
    s->worker = job;
    job->unfinished = job->nthreads;
    s->workers = job->nthreads;
    trace_omap4_fdif_workers(job->nthreads, job->plan.nunits);
    for (i = 0; i < job->nthreads; i++) {
        thread_pool_submit_aio(pool, omap4_fdif_worker, &job->slice[i],
                               omap4_fdif_worker_done, &job->slice[i]);
    }
}

/*
 * Start the detector for the active job on s->picture and the frozen
 * parameter registers. If a discarded job's workers are still running
 * (they have been told to stop), the new job waits for them: one job's
 * workers at a time.
 */
static void omap4_fdif_start_worker(Omap4FdifState *s)
{
    static const unsigned int min_sizes[4] = { 20, 25, 32, 40 };
    Omap4FdifJob *job = g_new0(Omap4FdifJob, 1);

    job->s = s;
    job->generation = s->generation;
    memcpy(job->picture, s->picture, sizeof(job->picture));
    facedet_params_default(&job->params);
    job->params.startx = s->startx;
    job->params.starty = s->starty;
    job->params.sizex = s->sizex;
    job->params.sizey = s->sizey;
    job->params.min_size = min_sizes[s->dcond & DCOND_MINSIZE];
    job->params.dir = (s->dcond >> DCOND_DIR_SHIFT) & 3;
    job->params.lhit = s->lhit;

    if (s->worker) {
        trace_omap4_fdif_wait();
        assert(!s->pending);
        s->pending = job;
        s->waited++;
        return;
    }
    omap4_fdif_submit(s, job);
}

/*
 * Back in the main loop, with the BQL: one of the job's workers is done.
 * Once all are (and so have returned), the job's result is complete.
 */
static void omap4_fdif_worker_done(void *opaque, int ret)
{
    Omap4FdifSlice *slice = opaque;
    Omap4FdifJob *job = slice->job;
    Omap4FdifState *s = job->s;

    /* s->workers counts the completions to come: one job is on the pool */
    assert(s->worker == job && s->workers);
    if (--s->workers) {
        return;
    }
    s->worker = NULL;
    if (job->generation != s->generation) {
        trace_omap4_fdif_stale();
        s->stale_dropped++;
        /* the abort reached the detector before it had done the job */
        if (job->units_done < job->plan.nunits) {
            s->cut_short++;
        }
        omap4_fdif_put_job(job);
        if (s->pending) {
            Omap4FdifJob *next = s->pending;

            s->pending = NULL;
            omap4_fdif_submit(s, next);
        }
        return;
    }
    s->result = job;    /* the last worker merged it */
    omap4_fdif_try_complete(s);
}

static const char *omap4_fdif_check_params(Omap4FdifState *s)
{
    if (s->fdif_ctrl & FDIF_CTRL_MSTANDBY) {
        return "RUN while in master standby (FDIF_CTRL.MSTANDBY)";
    }
    if (((s->dcond >> DCOND_DIR_SHIFT) & 3) == 3) {
        return "reserved face direction 3 in FD_DCOND";
    }
    if (s->startx > STARTX_MAX || s->starty > STARTY_MAX) {
        return "FD_STARTX > 160 or FD_STARTY > 120";
    }
    if (s->sizex < ROI_MIN || s->sizey < ROI_MIN ||
        s->startx + s->sizex > OMAP4_FDIF_PIC_WIDTH ||
        s->starty + s->sizey > OMAP4_FDIF_PIC_HEIGHT) {
        return "region of interest outside the 320x240 picture";
    }
    if (s->lhit > LHIT_MAX) {
        return "FD_LHIT > 9";
    }
    return NULL;
}

static uint32_t omap4_fdif_take_fault(Omap4FdifState *s)
{
    uint32_t fault = s->fault;

    if (fault != OMAP4_FDIF_FAULT_NONE && s->fault_jobs && !--s->fault_jobs) {
        s->fault = OMAP4_FDIF_FAULT_NONE;
    }
    return fault;
}

static void omap4_fdif_run(Omap4FdifState *s)
{
    const char *bad;
    MemTxResult r;

    if (s->busy) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "%s: RUN while a detection is running: ignored\n",
                      TYPE_OMAP4_FDIF);
        return;
    }
    trace_omap4_fdif_run(s->picaddr, s->wkaddr, s->dcond, s->startx, s->starty,
                         s->sizex, s->sizey, s->lhit);
    s->fd_ctrl &= ~FD_CTRL_FINISH;
    s->dnum = 0;
    memset(s->faces, 0, sizeof(s->faces));

    bad = omap4_fdif_check_params(s);
    if (bad) {
        omap4_fdif_error(s, bad);
        return;
    }
    if (!omap4_fdif_dma_ok(s, "PICADDR", s->picaddr, sizeof(s->picture),
                           false) ||
        !omap4_fdif_dma_ok(s, "WKADDR", s->wkaddr, OMAP4_FDIF_WORK_SIZE,
                           true)) {
        omap4_fdif_error(s, "DMA target is not RAM");
        return;
    }
    /*
     * Only a RUN that gets this far uses up an injected job fault; the
     * faults of resets and standby wait for those.
     */
    s->job_fault = s->fault == OMAP4_FDIF_FAULT_STUCK_RESET ||
                   s->fault == OMAP4_FDIF_FAULT_IRQ_IN_STANDBY ?
                   OMAP4_FDIF_FAULT_NONE : omap4_fdif_take_fault(s);
    r = dma_memory_read(&s->dma_as, s->picaddr, s->picture,
                        sizeof(s->picture), MEMTXATTRS_UNSPECIFIED);
    if (r != MEMTX_OK || s->job_fault == OMAP4_FDIF_FAULT_DMA) {
        omap4_fdif_error(s, r != MEMTX_OK ?
                         "DMA from PICADDR failed (L3 error)" :
                         "injected fault: picture DMA error");
        return;
    }
    s->start_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    s->busy = true;
    s->model_done = false;
    s->spurious_done = false;
    timer_mod(&s->timer, s->start_ns + omap4_fdif_frame_ns(s));
    omap4_fdif_start_worker(s);
}

/*
 * In master standby with the handshake given (FDIF_CTRL.MSTANDBY, no job)
 * the PRCM may cut the module's clocks, as Linux's ti-sysc does when the
 * driver has suspended it: then any access but to SYSCONFIG and FDIF_CTRL
 * (which a driver uses to wake it or to see the handshake) is an
 * interconnect error on a real OMAP4. This model has no clocks to cut: it
 * answers, and counts the access for the tests (EMU_STANDBY_ACCESSES).
 */
static void omap4_fdif_check_standby(Omap4FdifState *s, hwaddr addr,
                                     bool write)
{
    if (!(s->fdif_ctrl & FDIF_CTRL_MSTANDBY) || s->busy ||
        addr == R_SYSCONFIG || addr == R_FDIF_CTRL || addr >= R_EMU_ID) {
        return;
    }
    s->standby_accesses++;
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s of register 0x%03" HWADDR_PRIx
                  " in standby: a real OMAP4 may have gated the module\n",
                  TYPE_OMAP4_FDIF, write ? "write" : "read", addr);
}

/* The irq-in-standby fault's pulse ends. */
static void omap4_fdif_pulse_end(void *opaque)
{
    Omap4FdifState *s = opaque;

    s->standby_pulse = false;
    omap4_fdif_update_irq(s);
}

static uint64_t omap4_fdif_read(void *opaque, hwaddr addr, unsigned size)
{
    Omap4FdifState *s = opaque;
    uint64_t v = 0;
    int j;

    omap4_fdif_check_standby(s, addr, false);
    switch (addr) {
    case R_REVISION:
        v = FDIF_REVISION_VALUE;
        break;
    case R_HWINFO:
        v = FDIF_HWINFO_VALUE;
        break;
    case R_SYSCONFIG:
        v = s->sysconfig | (s->reset_stuck ? SYSCONFIG_SOFTRESET : 0);
        break;
    case R_IRQSTATUS_RAW(0) ... R_IRQENABLE_CLR(OMAP4_FDIF_IRQ_LINES - 1):
        j = (addr - R_IRQSTATUS_RAW(0)) / 0x10;
        switch ((addr - R_IRQSTATUS_RAW(0)) % 0x10) {
        case 0:
            v = s->irq_raw[j];
            break;
        case 4:
            v = s->irq_raw[j] & s->irq_enable[j];
            if (j == OMAP4_FDIF_MPU_LINE && s->spurious) {
                /* the spurious pulse ends when the handler looks */
                s->spurious = false;
                omap4_fdif_update_irq(s);
            }
            break;
        default:
            v = s->irq_enable[j];
            break;
        }
        break;
    case R_PICADDR:
        v = s->picaddr;
        break;
    case R_FDIF_CTRL:
        v = s->fdif_ctrl;
        if ((s->fdif_ctrl & FDIF_CTRL_MSTANDBY) && !s->busy) {
            v |= FDIF_CTRL_HDSHK;
        }
        break;
    case R_WKADDR:
        v = s->wkaddr;
        break;
    case R_FD_CTRL:
        v = s->fd_ctrl | (s->busy ? FD_CTRL_RUN : 0);
        break;
    case R_FD_DNUM:
        v = s->dnum;
        break;
    case R_FD_DCOND:
        v = s->dcond;
        break;
    case R_FD_STARTX:
        v = s->startx;
        break;
    case R_FD_STARTY:
        v = s->starty;
        break;
    case R_FD_SIZEX:
        v = s->sizex;
        break;
    case R_FD_SIZEY:
        v = s->sizey;
        break;
    case R_FD_LHIT:
        v = s->lhit;
        break;
    case R_FD_RESULT(0) ... R_FD_RESULT_END - 1: {
        const Omap4FdifFace *f = &s->faces[(addr - R_FD_RESULT(0)) / 0x10];

        switch (addr % 0x10) {
        case 0:
            v = f->centerx;
            break;
        case 4:
            v = f->centery;
            break;
        case 8:
            v = f->confsize;
            break;
        default:
            v = f->angle;
            break;
        }
        break;
    }
    case R_EMU_ID:
        v = EMU_ID_VALUE;
        break;
    case R_EMU_FRAME_TIME:
        v = s->frame_time_us;
        break;
    case R_EMU_FAULT:
        v = s->fault;
        break;
    case R_EMU_FAULT_JOBS:
        v = s->fault_jobs;
        break;
    case R_EMU_JOBS:
        v = s->jobs;
        break;
    case R_EMU_STANDBY_ACCESSES:
        v = s->standby_accesses;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: read of unknown register 0x%03"
                      HWADDR_PRIx "\n", TYPE_OMAP4_FDIF, addr);
        break;
    }
    trace_omap4_fdif_read(addr, v);
    return v;
}

/* Store @v & @mask; say so if the guest set bits outside @mask. */
static uint32_t omap4_fdif_masked(hwaddr addr, uint64_t v, uint32_t mask)
{
    if (v & ~(uint64_t)mask) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: reserved bits 0x%" PRIx64
                      " written to register 0x%03" HWADDR_PRIx ": ignored\n",
                      TYPE_OMAP4_FDIF, v & ~(uint64_t)mask, addr);
    }
    return v & mask;
}

static void omap4_fdif_write_param(Omap4FdifState *s, uint32_t *reg,
                                   hwaddr addr, uint64_t v, uint32_t mask)
{
    if (s->busy) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: register 0x%03" HWADDR_PRIx
                      " written while running: ignored\n", TYPE_OMAP4_FDIF,
                      addr);
        return;
    }
    *reg = omap4_fdif_masked(addr, v, mask);
}

static void omap4_fdif_write_test(Omap4FdifState *s, hwaddr addr, uint64_t v)
{
    if (!s->test_regs) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: test register 0x%03" HWADDR_PRIx
                      " written without test-regs=on: ignored\n",
                      TYPE_OMAP4_FDIF, addr);
        return;
    }
    switch (addr) {
    case R_EMU_FRAME_TIME:
        s->frame_time_us = v;
        break;
    case R_EMU_FAULT:
        if (v >= OMAP4_FDIF_FAULT__MAX) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: unknown fault %" PRIu64 "\n",
                          TYPE_OMAP4_FDIF, v);
            return;
        }
        s->fault = v;
        break;
    case R_EMU_FAULT_JOBS:
        s->fault_jobs = v;
        break;
    }
}

static void omap4_fdif_write(void *opaque, hwaddr addr, uint64_t v,
                             unsigned size)
{
    Omap4FdifState *s = opaque;
    int j;

    trace_omap4_fdif_write(addr, v);
    omap4_fdif_check_standby(s, addr, true);
    switch (addr) {
    case R_SYSCONFIG:
        if ((v & SYSCONFIG_SOFTRESET) &&
            s->fault == OMAP4_FDIF_FAULT_STUCK_RESET) {
            /* the reset starts and never completes: nothing is reset */
            omap4_fdif_take_fault(s);
            s->reset_stuck = true;
            qemu_log_mask(LOG_GUEST_ERROR, "%s: injected fault: SOFTRESET "
                          "does not complete\n", TYPE_OMAP4_FDIF);
            return;
        }
        if (v & SYSCONFIG_SOFTRESET) {
            trace_omap4_fdif_softreset();
            omap4_fdif_reset_regs(s);   /* SOFTRESET reads back 0: done */
            omap4_fdif_update_irq(s);
            return;
        }
        s->sysconfig = omap4_fdif_masked(addr, v, SYSCONFIG_MASK);
        break;
    case R_IRQSTATUS_RAW(0) ... R_IRQENABLE_CLR(OMAP4_FDIF_IRQ_LINES - 1):
        j = (addr - R_IRQSTATUS_RAW(0)) / 0x10;
        v = omap4_fdif_masked(addr, v, IRQ_MASK);
        switch ((addr - R_IRQSTATUS_RAW(0)) % 0x10) {
        case 0:     /* RAW: writing 1 sets the event, for software tests */
            s->irq_raw[j] |= v;
            break;
        case 4:     /* STATUS: writing 1 clears */
            s->irq_raw[j] &= ~v;
            break;
        case 8:
            s->irq_enable[j] |= v;
            break;
        default:
            s->irq_enable[j] &= ~v;
            break;
        }
        omap4_fdif_update_irq(s);
        break;
    case R_PICADDR:
    case R_WKADDR:
        if (v & ~ADDR_MASK) {
            qemu_log_mask(LOG_GUEST_ERROR, "%s: %s 0x%" PRIx64 " is not 32-byte"
                          " aligned: bits 4:0 ignored\n", TYPE_OMAP4_FDIF,
                          addr == R_PICADDR ? "PICADDR" : "WKADDR", v);
        }
        omap4_fdif_write_param(s, addr == R_PICADDR ? &s->picaddr : &s->wkaddr,
                               addr, v & ADDR_MASK, ADDR_MASK);
        break;
    case R_FDIF_CTRL:
        if ((v & FDIF_CTRL_MSTANDBY) && !(s->fdif_ctrl & FDIF_CTRL_MSTANDBY) &&
            !s->busy && s->fault == OMAP4_FDIF_FAULT_IRQ_IN_STANDBY) {
            /*
             * An interrupt the interrupt controller latched as the module
             * went idle: the handler runs with the module in standby.
             * The line drops again after 5 ms, however the guest answers
             * (a handler that must not touch the module cannot
             * acknowledge it): long enough for a vCPU the host schedules
             * late to see it, short enough for the handler's IRQ_NONEs
             * to stay far from the kernel's limit for spurious ones.
             */
            omap4_fdif_take_fault(s);
            qemu_log_mask(LOG_GUEST_ERROR, "%s: injected fault: interrupt "
                          "in standby\n", TYPE_OMAP4_FDIF);
            s->standby_pulse = true;
            timer_mod(&s->pulse_timer,
                      qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + 5 * SCALE_MS);
        }
        s->fdif_ctrl = omap4_fdif_masked(addr, v & ~FDIF_CTRL_HDSHK,
                                         FDIF_CTRL_MASK);
        omap4_fdif_update_irq(s);
        break;
    case R_FD_CTRL:
        omap4_fdif_masked(addr, v, FD_CTRL_SRST | FD_CTRL_RUN | FD_CTRL_FINISH);
        if (v & FD_CTRL_SRST) {
            trace_omap4_fdif_core_reset();
            omap4_fdif_core_reset(s);
            omap4_fdif_update_irq(s);   /* a spurious pulse ends with it */
            return;
        }
        if (v & FD_CTRL_FINISH) {
            s->fd_ctrl &= ~FD_CTRL_FINISH;   /* acknowledge */
        }
        if (v & FD_CTRL_RUN) {
            omap4_fdif_run(s);
        }
        break;
    case R_FD_DCOND:
        omap4_fdif_write_param(s, &s->dcond, addr, v, DCOND_MASK);
        break;
    case R_FD_STARTX:
        omap4_fdif_write_param(s, &s->startx, addr, v, 0x1ff);
        break;
    case R_FD_STARTY:
        omap4_fdif_write_param(s, &s->starty, addr, v, 0xff);
        break;
    case R_FD_SIZEX:
        omap4_fdif_write_param(s, &s->sizex, addr, v, 0x1ff);
        break;
    case R_FD_SIZEY:
        omap4_fdif_write_param(s, &s->sizey, addr, v, 0xff);
        break;
    case R_FD_LHIT:
        omap4_fdif_write_param(s, &s->lhit, addr, v, 0xf);
        break;
    case R_EMU_FRAME_TIME:
    case R_EMU_FAULT:
    case R_EMU_FAULT_JOBS:
        omap4_fdif_write_test(s, addr, v);
        break;
    case R_REVISION:
    case R_HWINFO:
    case R_FD_DNUM:
    case R_FD_RESULT(0) ... R_FD_RESULT_END - 1:
    case R_EMU_ID:
    case R_EMU_JOBS:
    case R_EMU_STANDBY_ACCESSES:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to read-only register 0x%03"
                      HWADDR_PRIx "\n", TYPE_OMAP4_FDIF, addr);
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "%s: write to unknown register 0x%03"
                      HWADDR_PRIx "\n", TYPE_OMAP4_FDIF, addr);
        break;
    }
}

static const MemoryRegionOps omap4_fdif_ops = {
    .read = omap4_fdif_read,
    .write = omap4_fdif_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static char *omap4_fdif_get_fault(Object *obj, Error **errp)
{
    return g_strdup(fault_names[OMAP4_FDIF(obj)->fault]);
}

/* The property's value (restored at reset) and the live EMU_FAULT. */
static void omap4_fdif_set_fault(Object *obj, const char *value, Error **errp)
{
    Omap4FdifState *s = OMAP4_FDIF(obj);
    int i;

    for (i = 0; i < OMAP4_FDIF_FAULT__MAX; i++) {
        if (!strcmp(value, fault_names[i])) {
            s->prop_fault = s->fault = i;
            return;
        }
    }
    error_setg(errp, "fault must be none, hang, err, spurious, dma, lost-irq "
               "or stuck-reset");
}

static void omap4_fdif_get_fault_jobs(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    visit_type_uint32(v, name, &OMAP4_FDIF(obj)->fault_jobs, errp);
}

static void omap4_fdif_set_fault_jobs(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    Omap4FdifState *s = OMAP4_FDIF(obj);
    uint32_t value;

    if (visit_type_uint32(v, name, &value, errp)) {
        s->prop_fault_jobs = s->fault_jobs = value;
    }
}

static void omap4_fdif_init(Object *obj)
{
    Omap4FdifState *s = OMAP4_FDIF(obj);

    memory_region_init_io(&s->iomem, obj, &omap4_fdif_ops, s,
                          TYPE_OMAP4_FDIF, OMAP4_FDIF_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, omap4_fdif_timer, s);
    timer_init_ns(&s->pulse_timer, QEMU_CLOCK_VIRTUAL, omap4_fdif_pulse_end, s);

    /* settable at any time (QMP qom-set), for tests */
    object_property_add_str(obj, "fault", omap4_fdif_get_fault,
                            omap4_fdif_set_fault);
    object_property_set_description(obj, "fault",
        "fault to inject: none, hang, err, spurious, dma, lost-irq or "
        "stuck-reset");
    object_property_add(obj, "fault-jobs", "uint32",
                        omap4_fdif_get_fault_jobs, omap4_fdif_set_fault_jobs,
                        NULL, NULL);
    object_property_set_description(obj, "fault-jobs",
        "number of jobs (SOFTRESETs for stuck-reset) the fault applies to "
        "(0: every one)");
    object_property_add_uint32_ptr(obj, "jobs", &s->jobs, OBJ_PROP_FLAG_READ);
    /* host-side counters, for tests */
    object_property_add_uint32_ptr(obj, "workers", &s->workers,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint32_ptr(obj, "contexts", &s->contexts,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint32_ptr(obj, "stale-dropped", &s->stale_dropped,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint32_ptr(obj, "cut-short", &s->cut_short,
                                   OBJ_PROP_FLAG_READ);
    object_property_add_uint32_ptr(obj, "waited", &s->waited,
                                   OBJ_PROP_FLAG_READ);
}

/*
 * The VM runs (again): start the worker of a job that came in by migration,
 * and publish a result that arrived while the VM was stopped. In a bottom
 * half, once the run state change is over.
 */
static void omap4_fdif_bh(void *opaque)
{
    Omap4FdifState *s = opaque;

    if (!runstate_is_running() || !s->busy) {
        return;
    }
    trace_omap4_fdif_resume(s->need_worker);
    if (s->need_worker && s->reread_picture) {
        /*
         * A stream without the "job" subsection (x-migrate-job=off, or a
         * QEMU before it): the picture read at RUN did not come along, so
         * read it again, and the model time starts again.
         */
        s->reread_picture = false;
        if (!omap4_fdif_dma_ok(s, "PICADDR", s->picaddr, sizeof(s->picture),
                               false) ||
            dma_memory_read(&s->dma_as, s->picaddr, s->picture,
                            sizeof(s->picture), MEMTXATTRS_UNSPECIFIED)) {
            omap4_fdif_cancel(s);
            omap4_fdif_error(s, "DMA from PICADDR failed after migration");
            return;
        }
        s->start_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        timer_mod(&s->timer, s->start_ns + omap4_fdif_frame_ns(s));
    }
    if (s->need_worker) {
        s->need_worker = false;
        omap4_fdif_start_worker(s);
    }
    omap4_fdif_try_complete(s);
}

static void omap4_fdif_vm_state_change(void *opaque, bool running,
                                       RunState state)
{
    Omap4FdifState *s = opaque;

    if (running) {
        qemu_bh_schedule(s->bh);
    }
}

static void omap4_fdif_realize(DeviceState *dev, Error **errp)
{
    Omap4FdifState *s = OMAP4_FDIF(dev);
    struct facedet_model *model;
    char err[256];
    int ret;

    if (s->threads < 1 || s->threads > OMAP4_FDIF_MAX_THREADS) {
        error_setg(errp, "threads=%" PRIu32 " out of range (1..%d)",
                   s->threads, OMAP4_FDIF_MAX_THREADS);
        return;
    }
    s->eval = facedet_eval_parse(s->evaluator ? s->evaluator : "auto");
    if (s->eval < 0) {
        error_setg(errp, "evaluator=%s: must be auto, sse2, scalar or "
                   "reference", s->evaluator);
        return;
    }
    if (!s->model_path) {
        s->model_path = g_strdup(FACEDET_DEFAULT_MODEL);
    }
    ret = facedet_model_load(s->model_path, &model, err, sizeof(err));
    if (ret) {
        error_setg(errp, "%s: cannot load the face model: %s",
                   TYPE_OMAP4_FDIF, err);
        error_append_hint(errp, "The default model %s is in Debian's "
                          "opencv-data package; model=PATH names another "
                          "OpenCV Haar cascade.\n", FACEDET_DEFAULT_MODEL);
        return;
    }
    s->model = model;

    if (replay_mode != REPLAY_MODE_NONE) {
        Error *blocker = NULL;

        /* when FINISH comes depends on a host thread's speed */
        error_setg(&blocker, "%s: its detector runs on a host thread whose "
                   "timing record/replay cannot reproduce", TYPE_OMAP4_FDIF);
        replay_add_blocker(blocker);
    }
    address_space_init(&s->dma_as, s->dma_mr ? s->dma_mr : get_system_memory(),
                       "omap4-fdif-dma");
    s->bh = qemu_bh_new_guarded(omap4_fdif_bh, s,
                                &DEVICE(s)->mem_reentrancy_guard);
    s->vmse = qemu_add_vm_change_state_handler(omap4_fdif_vm_state_change, s);
    s->frame_time_us = s->prop_frame_time_us;
    s->fault = s->prop_fault;
    s->fault_jobs = s->prop_fault_jobs;
}

static void omap4_fdif_unrealize(DeviceState *dev)
{
    Omap4FdifState *s = OMAP4_FDIF(dev);
    GSList *l;

    omap4_fdif_cancel(s);
    /* the workers were told to stop: wait for them, they use our contexts */
    while (s->worker) {
        aio_poll(qemu_get_aio_context(), true);
    }
    omap4_fdif_drop_jobs(s);
    for (l = s->ctx_pool; l; l = l->next) {
        facedet_ctx_free(l->data);
        s->contexts--;
    }
    g_slist_free(s->ctx_pool);
    s->ctx_pool = NULL;
    facedet_model_free(s->model);
    s->model = NULL;
    qemu_del_vm_change_state_handler(s->vmse);
    qemu_bh_delete(s->bh);
    address_space_destroy(&s->dma_as);
}

static void omap4_fdif_finalize(Object *obj)
{
    Omap4FdifState *s = OMAP4_FDIF(obj);

    timer_del(&s->timer);
    timer_del(&s->pulse_timer);
}

/*
 * Resettable: the enter phase drops the job and resets the registers,
 * including the EMU_* test registers to their property values (SOFTRESET
 * leaves those); the hold phase lowers the interrupt line.
 */
static void omap4_fdif_reset_enter(Object *obj, ResetType type)
{
    Omap4FdifState *s = OMAP4_FDIF(obj);

    omap4_fdif_reset_regs(s);
    s->standby_accesses = 0;
    s->frame_time_us = s->prop_frame_time_us;
    s->fault = s->prop_fault;
    s->fault_jobs = s->prop_fault_jobs;
}

static void omap4_fdif_reset_hold(Object *obj)
{
    omap4_fdif_update_irq(OMAP4_FDIF(obj));
}

static int omap4_fdif_pre_load(void *opaque)
{
    Omap4FdifState *s = opaque;

    /* the "job" subsection overrides these when a job is in flight */
    s->job_loaded = false;
    s->reset_stuck = false;
    s->standby_pulse = false;
    s->standby_accesses = 0;
    timer_del(&s->pulse_timer);
    s->model_done = false;
    s->spurious = false;
    s->spurious_done = false;
    s->start_ns = 0;
    timer_del(&s->timer);
    return 0;
}

/*
 * No DMA, no interrupt and no worker here: other devices (the interrupt
 * controller) may not be loaded yet. A job in flight resumes when the VM
 * runs (omap4_fdif_bh). Whatever this side had in flight is dropped.
 */
static int omap4_fdif_post_load(void *opaque, int version_id)
{
    Omap4FdifState *s = opaque;

    omap4_fdif_drop_jobs(s);
    if (!s->busy) {
        s->model_done = false;
        timer_del(&s->timer);
    }
    s->need_worker = s->busy;
    s->reread_picture = s->busy && !s->job_loaded;
    if (s->job_fault >= OMAP4_FDIF_FAULT__MAX ||
        s->fault >= OMAP4_FDIF_FAULT__MAX) {
        return -EINVAL;
    }
    return 0;
}

static bool omap4_fdif_job_needed(void *opaque)
{
    Omap4FdifState *s = opaque;

    return s->migrate_job && (s->busy || s->spurious);
}

static int omap4_fdif_job_post_load(void *opaque, int version_id)
{
    Omap4FdifState *s = opaque;

    s->job_loaded = true;
    return 0;
}

/* A job in flight: its timing state, deadline and the picture read at RUN. */
static const VMStateDescription vmstate_omap4_fdif_job = {
    .name = "omap4-fdif/job",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = omap4_fdif_job_needed,
    .post_load = omap4_fdif_job_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL(model_done, Omap4FdifState),
        VMSTATE_BOOL(spurious, Omap4FdifState),
        VMSTATE_BOOL(spurious_done, Omap4FdifState),
        VMSTATE_INT64(start_ns, Omap4FdifState),
        VMSTATE_TIMER(timer, Omap4FdifState),
        VMSTATE_BUFFER(picture, Omap4FdifState),
        VMSTATE_END_OF_LIST()
    }
};

static bool omap4_fdif_reset_stuck_needed(void *opaque)
{
    return ((Omap4FdifState *)opaque)->reset_stuck;
}

/* A SOFTRESET held by the stuck-reset fault. */
static const VMStateDescription vmstate_omap4_fdif_reset_stuck = {
    .name = "omap4-fdif/reset-stuck",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = omap4_fdif_reset_stuck_needed,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL(reset_stuck, Omap4FdifState),
        VMSTATE_END_OF_LIST()
    }
};

static bool omap4_fdif_standby_needed(void *opaque)
{
    Omap4FdifState *s = opaque;

    return s->standby_pulse || s->standby_accesses;
}

/* The irq-in-standby fault's pulse, and the accesses counted in standby. */
static const VMStateDescription vmstate_omap4_fdif_standby = {
    .name = "omap4-fdif/standby",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = omap4_fdif_standby_needed,
    .fields = (VMStateField[]) {
        VMSTATE_BOOL(standby_pulse, Omap4FdifState),
        VMSTATE_TIMER(pulse_timer, Omap4FdifState),
        VMSTATE_UINT32(standby_accesses, Omap4FdifState),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_omap4_fdif_face = {
    .name = "omap4-fdif/face",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(centerx, Omap4FdifFace),
        VMSTATE_UINT32(centery, Omap4FdifFace),
        VMSTATE_UINT32(confsize, Omap4FdifFace),
        VMSTATE_UINT32(angle, Omap4FdifFace),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_omap4_fdif = {
    .name = TYPE_OMAP4_FDIF,
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_load = omap4_fdif_pre_load,
    .post_load = omap4_fdif_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_UINT32(sysconfig, Omap4FdifState),
        VMSTATE_UINT32_ARRAY(irq_raw, Omap4FdifState, OMAP4_FDIF_IRQ_LINES),
        VMSTATE_UINT32_ARRAY(irq_enable, Omap4FdifState, OMAP4_FDIF_IRQ_LINES),
        VMSTATE_UINT32(picaddr, Omap4FdifState),
        VMSTATE_UINT32(wkaddr, Omap4FdifState),
        VMSTATE_UINT32(fdif_ctrl, Omap4FdifState),
        VMSTATE_UINT32(fd_ctrl, Omap4FdifState),
        VMSTATE_UINT32(dnum, Omap4FdifState),
        VMSTATE_UINT32(dcond, Omap4FdifState),
        VMSTATE_UINT32(startx, Omap4FdifState),
        VMSTATE_UINT32(starty, Omap4FdifState),
        VMSTATE_UINT32(sizex, Omap4FdifState),
        VMSTATE_UINT32(sizey, Omap4FdifState),
        VMSTATE_UINT32(lhit, Omap4FdifState),
        VMSTATE_STRUCT_ARRAY(faces, Omap4FdifState, OMAP4_FDIF_MAX_FACES, 1,
                             vmstate_omap4_fdif_face, Omap4FdifFace),
        VMSTATE_BOOL(busy, Omap4FdifState),
        VMSTATE_UINT32(job_fault, Omap4FdifState),
        VMSTATE_UINT32(jobs, Omap4FdifState),
        VMSTATE_UINT32(fault, Omap4FdifState),
        VMSTATE_UINT32(fault_jobs, Omap4FdifState),
        VMSTATE_UINT32(frame_time_us, Omap4FdifState),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * []) {
        &vmstate_omap4_fdif_job,
        &vmstate_omap4_fdif_reset_stuck,
        &vmstate_omap4_fdif_standby,
        NULL
    }
};

static Property omap4_fdif_properties[] = {
    DEFINE_PROP_STRING("model", Omap4FdifState, model_path),
    DEFINE_PROP_UINT32("frame-time-us", Omap4FdifState, prop_frame_time_us,
                       15000),
    DEFINE_PROP_UINT32("threads", Omap4FdifState, threads, 2),
    /* the detector's evaluator: all give the same faces (for tests) */
    DEFINE_PROP_STRING("evaluator", Omap4FdifState, evaluator),
    DEFINE_PROP_BOOL("test-regs", Omap4FdifState, test_regs, false),
    /* off: migrate as before the "job" subsection existed (compat, tests) */
    DEFINE_PROP_BOOL("x-migrate-job", Omap4FdifState, migrate_job, true),
    /* what the DMA sees; the system memory if unset */
    DEFINE_PROP_LINK("memory", Omap4FdifState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_END_OF_LIST(),
};

static void omap4_fdif_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->desc = "TI OMAP4 Face Detection module (FDIF)";
    dc->realize = omap4_fdif_realize;
    dc->unrealize = omap4_fdif_unrealize;
    rc->phases.enter = omap4_fdif_reset_enter;
    rc->phases.hold = omap4_fdif_reset_hold;
    dc->vmsd = &vmstate_omap4_fdif;
    dc->user_creatable = true;
    device_class_set_props(dc, omap4_fdif_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo omap4_fdif_info = {
    .name = TYPE_OMAP4_FDIF,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(Omap4FdifState),
    .instance_init = omap4_fdif_init,
    .instance_finalize = omap4_fdif_finalize,
    .class_init = omap4_fdif_class_init,
};

static void omap4_fdif_register_types(void)
{
    type_register_static(&omap4_fdif_info);
}

type_init(omap4_fdif_register_types)
