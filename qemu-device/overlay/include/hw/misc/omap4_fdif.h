/*
 * TI OMAP4 Face Detection module (FDIF)
 *
 * Copyright (c) 2026 The fdif developers
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_MISC_OMAP4_FDIF_H
#define HW_MISC_OMAP4_FDIF_H

#include "hw/sysbus.h"
#include "exec/memory.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_OMAP4_FDIF "omap4-fdif"
OBJECT_DECLARE_SIMPLE_TYPE(Omap4FdifState, OMAP4_FDIF)

#define OMAP4_FDIF_MMIO_SIZE    0x1000
#define OMAP4_FDIF_IRQ_LINES    3       /* IRQSTATUS_j for j = 0..2 */
#define OMAP4_FDIF_MPU_LINE     2       /* the line wired to the MPU */
#define OMAP4_FDIF_MAX_FACES    35
#define OMAP4_FDIF_PIC_WIDTH    320
#define OMAP4_FDIF_PIC_HEIGHT   240
#define OMAP4_FDIF_WORK_SIZE    (52 * 1024)

/* Fault injection modes (the "fault" property and EMU_FAULT register). */
enum {
    OMAP4_FDIF_FAULT_NONE,
    OMAP4_FDIF_FAULT_HANG,      /* the job never finishes */
    OMAP4_FDIF_FAULT_ERR,       /* the job ends with ERR instead of FINISH */
    OMAP4_FDIF_FAULT_SPURIOUS,  /* an IRQ with no status bit, then FINISH */
    OMAP4_FDIF_FAULT_DMA,       /* the picture DMA fails: ERR */
    OMAP4_FDIF_FAULT_LOST_IRQ,  /* FINISH latched, the line not raised */
    OMAP4_FDIF_FAULT_STUCK_RESET, /* SOFTRESET never completes */
    OMAP4_FDIF_FAULT_IRQ_IN_STANDBY, /* the line pulses as standby begins */
    OMAP4_FDIF_FAULT__MAX,
};

typedef struct Omap4FdifFace {
    uint32_t centerx, centery, confsize, angle;
} Omap4FdifFace;

typedef struct Omap4FdifJob Omap4FdifJob;

/*
 * Host threads one job may use ("threads" property), each with its own
 * detector context (~1.9 MB); as many idle contexts are kept for reuse.
 */
#define OMAP4_FDIF_MAX_THREADS 8

struct Omap4FdifState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq;
    QEMUTimer timer;
    QEMUTimer pulse_timer;      /* ends the irq-in-standby fault's pulse */
    QEMUBH *bh;                 /* work deferred until the VM runs */
    VMChangeStateEntry *vmse;
    MemoryRegion *dma_mr;       /* "memory" link: what the DMA sees */
    AddressSpace dma_as;

    /* registers */
    uint32_t sysconfig;
    uint32_t irq_raw[OMAP4_FDIF_IRQ_LINES];
    uint32_t irq_enable[OMAP4_FDIF_IRQ_LINES];
    uint32_t picaddr, wkaddr, fdif_ctrl, fd_ctrl;
    uint32_t dnum, dcond, startx, starty, sizex, sizey, lhit;
    Omap4FdifFace faces[OMAP4_FDIF_MAX_FACES];

    /* the active job (migrated while busy) */
    bool busy;              /* RUN accepted, FINISH/ERR not raised yet */
    bool model_done;        /* the timing model's time has passed */
    bool spurious;          /* a spurious IRQ is being signalled */
    bool spurious_done;     /* ... and was, for this job */
    uint32_t job_fault;     /* fault mode of the running job */
    int64_t start_ns;       /* virtual time of its RUN */
    uint8_t picture[OMAP4_FDIF_PIC_WIDTH * OMAP4_FDIF_PIC_HEIGHT];
    uint32_t jobs;          /* jobs completed since reset */
    bool reset_stuck;       /* a SOFTRESET that never completes (fault) */
    bool standby_pulse;     /* the irq-in-standby fault holds the line */
    uint32_t standby_accesses;  /* EMU_STANDBY_ACCESSES, since reset */

    /*
     * Host side, not migrated: the workers of at most one job run (the
     * active job's, or a discarded one's that was told to stop) and at
     * most one job waits for them.
     */
    uint64_t generation;    /* bumped by resets: stale workers are dropped */
    Omap4FdifJob *worker;   /* the job on the thread pool (its workers) */
    Omap4FdifJob *pending;  /* the active job, waiting for a stale worker */
    Omap4FdifJob *result;   /* the active job, its workers finished */
    bool need_worker;       /* busy, but no worker yet (after migration) */
    bool job_loaded;        /* the "job" subsection came with the state */
    bool reread_picture;    /* ... it did not: read the picture again */
    void *ctx_pool;         /* GSList of idle detector contexts */
    uint32_t workers;       /* QOM "workers": threads of @worker running */
    uint32_t contexts;      /* QOM "contexts": detector contexts allocated */
    uint32_t stale_dropped; /* QOM "stale-dropped": discarded results */
    uint32_t cut_short;     /* QOM "cut-short": ... of detectors stopped early */
    uint32_t waited;        /* QOM "waited": jobs that waited for a stale one */

    /* EMU_* registers: set from the properties at reset */
    uint32_t frame_time_us;
    uint32_t fault;
    uint32_t fault_jobs;

    /* properties */
    char *model_path;
    uint32_t prop_frame_time_us;
    uint32_t prop_fault;
    uint32_t prop_fault_jobs;
    uint32_t threads;       /* host threads a job is split across */
    char *evaluator;        /* the detector's evaluator: enum facedet_eval */
    int eval;
    bool test_regs;
    bool migrate_job;       /* x-migrate-job: send the "job" subsection */

    void *model;            /* struct facedet_model */
};

#endif /* HW_MISC_OMAP4_FDIF_H */
