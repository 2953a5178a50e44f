/*
 * QTest for the TI OMAP4 Face Detection module (omap4-fdif) on -M virt
 *
 * The device sits on the virt platform bus: MMIO at the bus base, its
 * interrupt on the bus's first SPI.  qtest cannot watch a sysbus IRQ line
 * in 7.2, so the line is observed through the GIC distributor's pending
 * bits (a level interrupt reads pending while it is asserted).
 *
 * FDIF_QTEST_FIXTURES names the folder of the detector's test pictures
 * (320x240 8-bit PGM, made by qemu-device/facedet/tests/make-fixtures.py),
 * each NAME.pgm with NAME.truth, the face boxes marked on it by hand or
 * where a face was pasted in. The detection tests check the faces the
 * device reports against those boxes: a face is found when its center lies
 * in a marked box and its size is within a factor of two of the box's.
 * Without the variable they are skipped (scripts/test.sh always sets it,
 * and its strict mode fails on such a skip).
 *
 * Copyright (c) 2026 The fdif developers
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <math.h>

#include "libqtest.h"
#include "qapi/qmp/qdict.h"
#include "qapi/qmp/qlist.h"

#define FDIF_BASE           0x0c000000ULL   /* virt platform bus */
#define GICD_BASE           0x08000000ULL
#define FDIF_SPI            112             /* first platform bus SPI */
#define FDIF_GIC_IRQ        (32 + FDIF_SPI)
#define GICD_ISPENDR(n)     (0x200 + (n) / 32 * 4)

#define PIC_ADDR            0x40100000ULL
#define WORK_ADDR           0x40200000ULL
#define BAD_ADDR            0x48000000ULL   /* past the 128 MiB of RAM */
#define W                   320
#define H                   240

#define REVISION            0x000
#define HWINFO              0x004
#define SYSCONFIG           0x010
#define IRQSTATUS_RAW(j)    (0x024 + (j) * 0x10)
#define IRQSTATUS(j)        (0x028 + (j) * 0x10)
#define IRQENABLE_SET(j)    (0x02c + (j) * 0x10)
#define IRQENABLE_CLR(j)    (0x030 + (j) * 0x10)
#define PICADDR             0x060
#define FDIF_CTRL           0x064
#define WKADDR              0x068
#define FD_CTRL             0x080
#define FD_DNUM             0x084
#define FD_DCOND            0x088
#define FD_STARTX           0x08c
#define FD_STARTY           0x090
#define FD_SIZEX            0x094
#define FD_SIZEY            0x098
#define FD_LHIT             0x09c
#define FD_CENTERX(i)       (0x160 + (i) * 0x10)
#define FD_CENTERY(i)       (0x164 + (i) * 0x10)
#define FD_CONFSIZE(i)      (0x168 + (i) * 0x10)
#define FD_ANGLE(i)         (0x16c + (i) * 0x10)
#define EMU_ID              0xf00
#define EMU_FRAME_TIME      0xf04
#define EMU_FAULT           0xf08
#define EMU_FAULT_JOBS      0xf0c
#define EMU_JOBS            0xf10
#define EMU_STANDBY_ACCESSES 0xf14
#define MSTANDBY            (1u << 0)

#define ERR                 (1u << 0)
#define FINISH              (1u << 8)
#define CTRL_SRST           (1u << 0)
#define CTRL_RUN            (1u << 1)
#define CTRL_FINISH         (1u << 2)
#define MPU                 2
#define MAX_FACES           35
#define WORK_HDR            64
#define WORK_REC            16

static uint32_t rd(QTestState *qts, uint32_t reg)
{
    return qtest_readl(qts, FDIF_BASE + reg);
}

static void wr(QTestState *qts, uint32_t reg, uint32_t v)
{
    qtest_writel(qts, FDIF_BASE + reg, v);
}

static bool irq_pending(QTestState *qts)
{
    return qtest_readl(qts, GICD_BASE + GICD_ISPENDR(FDIF_GIC_IRQ)) &
           (1u << (FDIF_GIC_IRQ % 32));
}

static QTestState *start(const char *opts)
{
    return qtest_initf("-machine virt -nodefaults "
                       "-device omap4-fdif,id=fdif%s%s",
                       opts ? "," : "", opts ? opts : "");
}

/* A QOM property of the device, as an integer. */
static int64_t qom_get_int(QTestState *qts, const char *prop)
{
    QDict *rsp = qtest_qmp(qts, "{ 'execute': 'qom-get', 'arguments': {"
                           " 'path': '/machine/peripheral/fdif',"
                           " 'property': %s } }", prop);
    int64_t v;

    g_assert_true(qdict_haskey(rsp, "return"));
    v = qdict_get_int(rsp, "return");
    qobject_unref(rsp);
    return v;
}

/*
 * Wait (in real time, the detector's) until no detector worker of the
 * device is running: its QOM counter "workers" reads 0.
 */
static void wait_workers_idle(QTestState *qts)
{
    int i;

    for (i = 0; i < 20000 && qom_get_int(qts, "workers"); i++) {
        g_usleep(1000);
    }
    g_assert_cmpint(qom_get_int(qts, "workers"), ==, 0);
}

/* Fixture NAME.EXT's contents, or NULL without FDIF_QTEST_FIXTURES. */
static char *fixture(const char *name, const char *ext, gsize *len)
{
    const char *dir = g_getenv("FDIF_QTEST_FIXTURES");
    g_autofree char *path = NULL;
    char *data;

    if (!dir) {
        return NULL;
    }
    path = g_strdup_printf("%s/%s.%s", dir, name, ext);
    g_assert_true(g_file_get_contents(path, &data, len, NULL));
    return data;
}

/* A test picture: NAME.pgm, or a gradient when there are no fixtures. */
static uint8_t *load_fixture(const char *name, bool *real)
{
    static const char hdr[] = "P5\n320 240\n255\n";
    g_autofree char *data = NULL;
    uint8_t *pic = g_malloc(W * H);
    gsize len;
    int i;

    data = fixture(name, "pgm", &len);
    *real = data != NULL;
    if (data) {
        g_assert_cmpuint(len, ==, sizeof(hdr) - 1 + W * H);
        g_assert_cmpmem(data, sizeof(hdr) - 1, hdr, sizeof(hdr) - 1);
        memcpy(pic, data + sizeof(hdr) - 1, W * H);
    } else {
        for (i = 0; i < W * H; i++) {
            pic[i] = (i % W) * 255 / W;
        }
    }
    return pic;
}

static uint8_t *load_picture(bool *real)
{
    return load_fixture("astronaut", real);
}

typedef struct Box {
    double x, y, w, h;
} Box;

/* The marked faces of fixture NAME (NAME.truth); returns their number. */
static int load_truth(const char *name, Box *boxes, int max)
{
    g_autofree char *data = NULL;
    g_auto(GStrv) lines = NULL;
    gsize len;
    int n = 0, i;

    data = fixture(name, "truth", &len);
    g_assert_nonnull(data);
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i] && *lines[i]; i++) {
        g_assert_cmpint(n, <, max);
        g_assert_cmpint(sscanf(lines[i], "%lf %lf %lf %lf", &boxes[n].x,
                               &boxes[n].y, &boxes[n].w, &boxes[n].h), ==, 4);
        n++;
    }
    return n;
}

/* Face @i of the result registers lies on marked box @b. */
static bool face_on(QTestState *qts, int i, const Box *b)
{
    uint32_t cx = rd(qts, FD_CENTERX(i)), cy = rd(qts, FD_CENTERY(i));
    uint32_t size = rd(qts, FD_CONFSIZE(i)) & 0xff;
    double side = sqrt(b->w * b->h);

    return cx >= b->x && cx <= b->x + b->w && cy >= b->y && cy <= b->y + b->h &&
           size >= side / 2 && size <= side * 2;
}

/*
 * The @n faces in the result registers: each on a different marked box,
 * most confident first (TRM confidence 0 is the best), ties by row, then
 * column; every face register past them reads 0.
 */
static void check_faces(QTestState *qts, int n, const Box *truth, int marked)
{
    bool used[128] = { false };
    int i, j;

    g_assert_cmpint(marked, <=, 128);
    for (i = 0; i < n; i++) {
        uint32_t cs = rd(qts, FD_CONFSIZE(i));

        g_test_message("face %d: %u,%u size %u conf %u angle %u", i,
                       rd(qts, FD_CENTERX(i)), rd(qts, FD_CENTERY(i)),
                       cs & 0xff, cs >> 8, rd(qts, FD_ANGLE(i)));
        for (j = 0; j < marked && (used[j] || !face_on(qts, i, &truth[j])); j++) {
            ;
        }
        g_assert_cmpint(j, <, marked);      /* on a marked face not taken */
        used[j] = true;
        g_assert_cmpuint(cs >> 8, <=, 9);
        if (i > 0) {
            /* raster order: top to bottom, then left to right */
            uint32_t py = rd(qts, FD_CENTERY(i - 1)), y = rd(qts, FD_CENTERY(i));

            g_assert_cmpuint(py, <=, y);
            if (py == y) {
                g_assert_cmpuint(rd(qts, FD_CENTERX(i - 1)), <=,
                                 rd(qts, FD_CENTERX(i)));
            }
        }
    }
    for (i = n; i < MAX_FACES; i++) {
        g_assert_cmphex(rd(qts, FD_CENTERX(i)) | rd(qts, FD_CENTERY(i)) |
                        rd(qts, FD_CONFSIZE(i)) | rd(qts, FD_ANGLE(i)), ==, 0);
    }
}

/*
 * The result register (0 .. @dnum - 1) that holds work-area record @rec,
 * every field alike, or -1. The registers are in raster order, the
 * records most confident first (docs/fdif-device.md).
 */
static int face_of_record(QTestState *qts, uint64_t rec, uint32_t dnum)
{
    uint32_t j;

    for (j = 0; j < dnum; j++) {
        uint32_t cs = rd(qts, FD_CONFSIZE(j));

        if (qtest_readw(qts, rec) == rd(qts, FD_CENTERX(j)) &&
            qtest_readw(qts, rec + 2) == rd(qts, FD_CENTERY(j)) &&
            qtest_readw(qts, rec + 4) == (cs & 0xff) &&
            qtest_readw(qts, rec + 6) == rd(qts, FD_ANGLE(j)) &&
            qtest_readw(qts, rec + 8) == cs >> 8) {
            return j;
        }
    }
    return -1;
}

static void program(QTestState *qts, uint64_t pic, uint64_t work)
{
    wr(qts, PICADDR, pic);
    wr(qts, WKADDR, work);
    wr(qts, IRQENABLE_SET(MPU), FINISH | ERR);
}

/*
 * Let virtual time pass (1 ms steps) while the detector runs in real time,
 * until an event in @mask is raised; false after about 20 s of real time.
 */
static bool wait_event(QTestState *qts, uint32_t mask)
{
    int i;

    for (i = 0; i < 20000; i++) {
        if (rd(qts, IRQSTATUS_RAW(MPU)) & mask) {
            return true;
        }
        qtest_clock_step(qts, 1000 * 1000);
        g_usleep(1000);
    }
    return false;
}

/* Run a detection on whatever picture is at PIC_ADDR; returns the events. */
static uint32_t run_job(QTestState *qts)
{
    uint32_t ev;

    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_true(wait_event(qts, FINISH | ERR));
    ev = rd(qts, IRQSTATUS(MPU));
    wr(qts, IRQSTATUS(MPU), ev);
    g_assert_false(irq_pending(qts));
    return ev;
}

static void test_reset_values(void)
{
    QTestState *qts = start(NULL);

    g_assert_cmphex(rd(qts, REVISION), ==, 0x50000201);
    g_assert_cmphex(rd(qts, HWINFO) & 0x3f, ==, 35);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);
    g_assert_cmphex(rd(qts, FDIF_CTRL), ==, 0xa << 1);
    g_assert_cmphex(rd(qts, FD_CTRL), ==, 0);
    g_assert_cmphex(rd(qts, FD_DNUM), ==, 0);
    g_assert_cmphex(rd(qts, FD_DCOND), ==, 0);
    g_assert_cmphex(rd(qts, FD_STARTX), ==, 0);
    g_assert_cmphex(rd(qts, FD_STARTY), ==, 0);
    g_assert_cmphex(rd(qts, FD_SIZEX), ==, 320);
    g_assert_cmphex(rd(qts, FD_SIZEY), ==, 240);
    g_assert_cmphex(rd(qts, FD_LHIT), ==, 5);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmphex(rd(qts, IRQENABLE_SET(MPU)), ==, 0);
    g_assert_cmphex(rd(qts, EMU_ID), ==, 0x46444651);
    g_assert_cmphex(rd(qts, EMU_FRAME_TIME), ==, 15000);
    g_assert_false(irq_pending(qts));

    /* read-only registers stay put */
    wr(qts, REVISION, 0);
    wr(qts, FD_DNUM, 7);
    g_assert_cmphex(rd(qts, REVISION), ==, 0x50000201);
    g_assert_cmphex(rd(qts, FD_DNUM), ==, 0);
    qtest_quit(qts);
}

static void test_registers(void)
{
    QTestState *qts = start(NULL);

    /* addresses: 32-byte aligned, bits 4:0 read as 0 */
    wr(qts, PICADDR, 0x40100013);
    g_assert_cmphex(rd(qts, PICADDR), ==, 0x40100000);
    wr(qts, WKADDR, 0xffffffff);
    g_assert_cmphex(rd(qts, WKADDR), ==, 0xffffffe0);
    /* field widths */
    wr(qts, FD_DCOND, 0xffffffff);
    g_assert_cmphex(rd(qts, FD_DCOND), ==, 0xf);
    wr(qts, FD_STARTX, 0xffffffff);
    g_assert_cmphex(rd(qts, FD_STARTX), ==, 0x1ff);
    wr(qts, FD_SIZEY, 0xffffffff);
    g_assert_cmphex(rd(qts, FD_SIZEY), ==, 0xff);
    wr(qts, FD_LHIT, 0x13);
    g_assert_cmphex(rd(qts, FD_LHIT), ==, 0x3);
    /* FDIF_CTRL: MAX_TAGS and MSTANDBY; HDSHK acknowledges when idle */
    wr(qts, FDIF_CTRL, 0x1f);
    g_assert_cmphex(rd(qts, FDIF_CTRL), ==, 0x1f | (1 << 5));
    wr(qts, FDIF_CTRL, 0x0a << 1);
    g_assert_cmphex(rd(qts, FDIF_CTRL), ==, 0x0a << 1);
    qtest_quit(qts);
}

static void test_soft_reset(void)
{
    QTestState *qts = start(NULL);

    wr(qts, PICADDR, PIC_ADDR);
    wr(qts, FD_DCOND, 0x6);
    wr(qts, FD_LHIT, 9);
    wr(qts, SYSCONFIG, 0x14);
    wr(qts, IRQENABLE_SET(MPU), FINISH);
    wr(qts, IRQSTATUS_RAW(MPU), FINISH);
    g_assert_true(irq_pending(qts));

    wr(qts, SYSCONFIG, 0x1);    /* SOFTRESET: self-clearing */
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);
    g_assert_cmphex(rd(qts, PICADDR), ==, 0);
    g_assert_cmphex(rd(qts, FD_DCOND), ==, 0);
    g_assert_cmphex(rd(qts, FD_LHIT), ==, 5);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmphex(rd(qts, IRQENABLE_SET(MPU)), ==, 0);
    g_assert_false(irq_pending(qts));
    qtest_quit(qts);
}

static void test_irq(void)
{
    QTestState *qts = start(NULL);
    int j;

    /* raw events latch without the line; enable gates the line */
    wr(qts, IRQSTATUS_RAW(MPU), FINISH | ERR);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, FINISH | ERR);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, 0);
    g_assert_false(irq_pending(qts));
    wr(qts, IRQENABLE_SET(MPU), ERR);
    g_assert_cmphex(rd(qts, IRQENABLE_SET(MPU)), ==, ERR);
    g_assert_cmphex(rd(qts, IRQENABLE_CLR(MPU)), ==, ERR);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_true(irq_pending(qts));
    wr(qts, IRQENABLE_SET(MPU), FINISH);
    wr(qts, IRQENABLE_CLR(MPU), ERR);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, FINISH);
    g_assert_true(irq_pending(qts));
    /* writing 1 to IRQSTATUS clears; 0 bits are left alone */
    wr(qts, IRQSTATUS(MPU), 0);
    g_assert_true(irq_pending(qts));
    wr(qts, IRQSTATUS(MPU), FINISH);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, ERR);
    g_assert_false(irq_pending(qts));
    wr(qts, IRQSTATUS(MPU), ERR);

    /* lines 0 and 1 go to other initiators, not to this interrupt */
    for (j = 0; j < 2; j++) {
        wr(qts, IRQENABLE_SET(j), FINISH | ERR);
        wr(qts, IRQSTATUS_RAW(j), FINISH);
        g_assert_cmphex(rd(qts, IRQSTATUS(j)), ==, FINISH);
        g_assert_false(irq_pending(qts));
        wr(qts, IRQSTATUS(j), FINISH);
        g_assert_cmphex(rd(qts, IRQSTATUS_RAW(j)), ==, 0);
    }
    qtest_quit(qts);
}

static void test_detect(void)
{
    QTestState *qts;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);
    uint32_t ev;

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);

    qts = start(NULL);
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    qtest_memset(qts, WORK_ADDR, 0, 64);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);
    g_assert_true(wait_event(qts, FINISH | ERR));
    g_assert_true(irq_pending(qts));
    ev = rd(qts, IRQSTATUS(MPU));
    g_assert_cmphex(ev, ==, FINISH);
    g_assert_cmphex(rd(qts, FD_CTRL), ==, CTRL_FINISH);

    /* the one face of the photo, where a person marked it */
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    check_faces(qts, 1, &t, 1);
    g_assert_cmpuint(rd(qts, FD_ANGLE(0)) % 360 <= 30 ||
                     rd(qts, FD_ANGLE(0)) >= 330, ==, true);

    /* acknowledge: the line drops, FINISH in FD_CTRL clears on write */
    wr(qts, IRQSTATUS(MPU), ev);
    g_assert_false(irq_pending(qts));
    wr(qts, FD_CTRL, CTRL_FINISH);
    g_assert_cmphex(rd(qts, FD_CTRL), ==, 0);

    /* the work area: magic, version, a run counter kept across jobs */
    g_assert_cmphex(qtest_readl(qts, WORK_ADDR), ==, 0x4b574446);
    g_assert_cmphex(qtest_readl(qts, WORK_ADDR + 4), ==, 1);
    g_assert_cmphex(qtest_readl(qts, WORK_ADDR + 8), ==, 1);
    g_assert_cmpuint(qtest_readl(qts, WORK_ADDR + 28), >=, 1);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmphex(qtest_readl(qts, WORK_ADDR + 8), ==, 2);

    /* an ROI that leaves the face out finds none */
    g_assert_cmpfloat(t.y + t.h, <, 120);
    wr(qts, FD_STARTX, 0);
    wr(qts, FD_STARTY, 120);
    wr(qts, FD_SIZEX, 320);
    wr(qts, FD_SIZEY, 120);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    check_faces(qts, 0, &t, 1);
    g_assert_cmpuint(rd(qts, EMU_JOBS), ==, 3);

    qtest_quit(qts);
    g_free(pic);
}

/*
 * Many faces: the LFW mosaics, 15 faces of 48 px and 60 of 28 px pasted on
 * a grid. Every face register, the 35-face cap in DNUM, the order, and the
 * work area's records of all faces before the cap.
 */
static void test_many_faces(void)
{
    static const struct {
        const char *name;
        int marked, dnum;
    } mosaics[] = {
        { "lfw-15", 15, 15 },
        { "lfw-60", 60, MAX_FACES },
    };
    Box truth[64];
    int k, i, n;

    for (k = 0; k < G_N_ELEMENTS(mosaics); k++) {
        QTestState *qts;
        uint32_t records;
        bool real;
        uint8_t *pic = load_fixture(mosaics[k].name, &real);

        if (!real) {
            g_test_skip("FDIF_QTEST_FIXTURES not set");
            g_free(pic);
            return;
        }
        n = load_truth(mosaics[k].name, truth, G_N_ELEMENTS(truth));
        g_assert_cmpint(n, ==, mosaics[k].marked);
        qts = start(NULL);
        qtest_memwrite(qts, PIC_ADDR, pic, W * H);
        qtest_memset(qts, WORK_ADDR, 0, 64 * 1024);
        program(qts, PIC_ADDR, WORK_ADDR);
        g_assert_cmphex(run_job(qts), ==, FINISH);
        g_test_message("%s: DNUM %u", mosaics[k].name, rd(qts, FD_DNUM));
        g_assert_cmpuint(rd(qts, FD_DNUM), ==, mosaics[k].dnum);
        check_faces(qts, mosaics[k].dnum, truth, n);

        /*
         * The work area holds every face before the cap, most confident
         * first: its first DNUM records are the registers' faces, and
         * none of the records the cap dropped is more confident.
         */
        records = qtest_readl(qts, WORK_ADDR + 28);
        g_assert_cmpuint(records, >=, mosaics[k].dnum);
        for (i = 0; i < records; i++) {
            uint64_t rec = WORK_ADDR + WORK_HDR + i * WORK_REC;

            if (i > 0) {
                g_assert_cmpuint(qtest_readw(qts, rec - WORK_REC + 8), <=,
                                 qtest_readw(qts, rec + 8));
            }
            /* in the registers exactly when it is one of the first DNUM */
            g_assert_cmpint(face_of_record(qts, rec, mosaics[k].dnum) >= 0, ==,
                            i < mosaics[k].dnum);
        }
        qtest_quit(qts);
        g_free(pic);
    }
}

static void test_timing(void)
{
    QTestState *qts = start("frame-time-us=15000");
    bool real;
    uint8_t *pic = load_picture(&real);

    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    /* the detector is done in real time long before... */
    qtest_clock_step(qts, 14 * 1000 * 1000);
    g_usleep(3 * G_USEC_PER_SEC);
    qtest_clock_step(qts, 1000);
    /* ...the 15 ms of virtual time the engine takes */
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);
    qtest_clock_step(qts, 1000 * 1000);
    g_assert_true(wait_event(qts, FINISH));

    /* a quarter of the picture takes a quarter of the time */
    wr(qts, IRQSTATUS(MPU), FINISH);
    wr(qts, FD_SIZEX, 160);
    wr(qts, FD_SIZEY, 120);
    wr(qts, FD_CTRL, CTRL_RUN);
    qtest_clock_step(qts, 3700 * 1000);
    g_usleep(2 * G_USEC_PER_SEC);
    qtest_clock_step(qts, 1000);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    qtest_clock_step(qts, 100 * 1000);
    g_assert_true(wait_event(qts, FINISH));
    qtest_quit(qts);
    g_free(pic);
}

static void test_bad_dma(void)
{
    QTestState *qts = start(NULL);
    bool real;
    uint8_t *pic = load_picture(&real);

    /* picture outside RAM: ERR at once, nothing runs */
    program(qts, BAD_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_true(irq_pending(qts));
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    wr(qts, IRQSTATUS(MPU), ERR);

    /*
     * work area outside RAM: checked at RUN with the picture, so ERR comes
     * at once too, before the picture is read or anything runs
     */
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    wr(qts, PICADDR, PIC_ADDR);
    wr(qts, WKADDR, BAD_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    g_assert_cmpint(qom_get_int(qts, "workers"), ==, 0);
    wr(qts, IRQSTATUS(MPU), ERR);

    /* and the device works again once programmed right */
    wr(qts, WKADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
    g_free(pic);
}

static void test_bad_params(void)
{
    static const struct {
        uint32_t reg, val;
    } bad[] = {
        { FD_DCOND, 3 << 2 },       /* reserved direction */
        { FD_STARTX, 161 },
        { FD_STARTY, 121 },
        { FD_SIZEX, 19 },
        { FD_SIZEY, 0 },
        { FD_LHIT, 10 },
    };
    QTestState *qts = start(NULL);
    unsigned int i;

    program(qts, PIC_ADDR, WORK_ADDR);
    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        wr(qts, SYSCONFIG, 1);
        program(qts, PIC_ADDR, WORK_ADDR);
        wr(qts, bad[i].reg, bad[i].val);
        wr(qts, FD_CTRL, CTRL_RUN);
        g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
        g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    }
    /* ROI running off the picture's edge */
    wr(qts, SYSCONFIG, 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_STARTX, 160);
    wr(qts, FD_SIZEX, 161);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    /* RUN in master standby */
    wr(qts, SYSCONFIG, 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FDIF_CTRL, 1);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    qtest_quit(qts);
}

/*
 * A RUN that the parameter or DMA checks refuse leaves an injected job
 * fault for the next RUN that passes them (docs/fdif-device.md, "Fault
 * injection"): each refusal here must be the checks', not a job's that
 * went further.
 */
static void test_refused_run_keeps_fault(void)
{
    static const struct {
        uint32_t reg, val;
    } bad[][2] = {
        { { FD_STARTX, 160 }, { FD_SIZEX, 161 } },  /* past the right edge */
        { { FD_STARTY, 120 }, { FD_SIZEY, 121 } },  /* past the bottom edge */
        { { FD_STARTX, 161 }, { FD_SIZEX, 20 } },
        { { FD_SIZEX, 19 }, { FD_SIZEX, 19 } },
        { { FD_DCOND, 3 << 2 }, { FD_DCOND, 3 << 2 } },
        { { FD_LHIT, 10 }, { FD_LHIT, 10 } },
        { { FDIF_CTRL, 1 }, { FDIF_CTRL, 1 } },     /* master standby */
        { { PICADDR, 0 }, { PICADDR, 0 } },         /* flash, not RAM */
    };
    QTestState *qts = start("fault=err,fault-jobs=1");
    unsigned int i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        wr(qts, SYSCONFIG, 1);
        program(qts, PIC_ADDR, WORK_ADDR);
        wr(qts, bad[i][0].reg, bad[i][0].val);
        wr(qts, bad[i][1].reg, bad[i][1].val);
        wr(qts, FD_CTRL, CTRL_RUN);
        g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
        wr(qts, IRQSTATUS(MPU), ERR);
    }
    wr(qts, SYSCONFIG, 1);
    g_assert_cmphex(rd(qts, FDIF_CTRL) & 1, ==, 0);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, ERR);     /* the fault, still there */
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

static void test_run_while_busy(void)
{
    QTestState *qts = start("frame-time-us=100000");

    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    /* parameters are frozen and a second RUN is ignored while busy */
    wr(qts, FD_LHIT, 9);
    g_assert_cmpuint(rd(qts, FD_LHIT), ==, 5);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_true(wait_event(qts, FINISH | ERR));
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, FINISH);
    wr(qts, IRQSTATUS(MPU), FINISH);
    /* well past a second job's time: nothing else happens */
    qtest_clock_step(qts, 300 * 1000 * 1000);
    g_usleep(500 * 1000);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmpuint(rd(qts, EMU_JOBS), ==, 1);
    qtest_quit(qts);
}

/*
 * Start a job, discard it with @how, check that it never finishes and that
 * a new job works.
 */
static void reset_mid_job(QTestState *qts, void (*how)(QTestState *qts),
                          int *stale)
{
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);
    how(qts);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    /* well past the job's time, and until its worker has been dropped */
    qtest_clock_step(qts, 100 * 1000 * 1000);
    wait_workers_idle(qts);
    g_assert_cmpint(qom_get_int(qts, "stale-dropped"), ==, ++*stale);
    qtest_clock_step(qts, 100 * 1000 * 1000);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    wr(qts, IRQSTATUS(MPU), FINISH);
}

static void by_srst(QTestState *qts)
{
    wr(qts, FD_CTRL, CTRL_SRST);
}

static void by_softreset(QTestState *qts)
{
    wr(qts, SYSCONFIG, 1);
}

static void by_system_reset(QTestState *qts)
{
    qtest_qmp_assert_success(qts, "{ 'execute': 'system_reset' }");
    qtest_qmp_eventwait(qts, "RESET");
}

static void test_reset_mid_job(void)
{
    QTestState *qts = start(NULL);
    bool real;
    uint8_t *pic = load_picture(&real);
    int stale = 0;


    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    reset_mid_job(qts, by_srst, &stale);
    reset_mid_job(qts, by_softreset, &stale);
    reset_mid_job(qts, by_system_reset, &stale);
    /*
     * A discarded detector is told to stop, and does: at least the job
     * discarded by SRST, a register write right after RUN, stopped before
     * it had scanned its whole pyramid (at its next level: facedet's
     * /facedet/detect/abort test checks that it asks once per level).
     */
    g_test_message("%" PRId64 " of 3 discarded detectors were cut short",
                   qom_get_int(qts, "cut-short"));
    g_assert_cmpint(qom_get_int(qts, "cut-short"), >=, 1);
    qtest_quit(qts);
    g_free(pic);
}

static void set_fault(QTestState *qts, const char *fault, int jobs)
{
    qtest_qmp_assert_success(qts,
        "{ 'execute': 'qom-set', 'arguments': { 'path': '/machine/peripheral/fdif',"
        " 'property': 'fault', 'value': %s } }", fault);
    qtest_qmp_assert_success(qts,
        "{ 'execute': 'qom-set', 'arguments': { 'path': '/machine/peripheral/fdif',"
        " 'property': 'fault-jobs', 'value': %d } }", jobs);
}

static void test_fault_hang(void)
{
    QTestState *qts = start(NULL);

    set_fault(qts, "hang", 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    qtest_clock_step(qts, 1000ULL * 1000 * 1000);
    g_usleep(G_USEC_PER_SEC);
    qtest_clock_step(qts, 1000ULL * 1000 * 1000);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);
    /* the driver's way out: core reset, then the next job is good */
    wr(qts, FD_CTRL, CTRL_SRST);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

static void test_fault_err(void)
{
    QTestState *qts = start("fault=err,fault-jobs=2");

    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, ERR);
    g_assert_cmphex(run_job(qts), ==, ERR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

static void test_fault_spurious(void)
{
    QTestState *qts = start("frame-time-us=1000");
    int i;

    set_fault(qts, "spurious", 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    for (i = 0; i < 5000 && !irq_pending(qts); i++) {
        qtest_clock_step(qts, 100 * 1000);
        g_usleep(1000);
    }
    /* an interrupt with nothing to say... */
    g_assert_true(irq_pending(qts));
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    /* ...that the handler's look ends */
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, 0);
    g_assert_false(irq_pending(qts));
    /* and the job still finishes */
    g_assert_true(wait_event(qts, FINISH));
    qtest_quit(qts);
}

/* FD_CTRL.SRST during a spurious pulse: the job and its pulse are gone. */
static void test_fault_spurious_srst(void)
{
    QTestState *qts = start("frame-time-us=1000,fault=spurious,fault-jobs=1");
    int i;

    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    for (i = 0; i < 5000 && !irq_pending(qts); i++) {
        qtest_clock_step(qts, 100 * 1000);
    }
    g_assert_true(irq_pending(qts));
    wr(qts, FD_CTRL, CTRL_SRST);
    g_assert_false(irq_pending(qts));
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

/*
 * stuck-reset: a SOFTRESET that never completes (SOFTRESET reads 1 and
 * nothing is reset) for fault-jobs SOFTRESET writes; RUNs do not use it
 * up; the next SOFTRESET after it works.
 */
static void test_fault_stuck_reset(void)
{
    QTestState *qts = start(NULL);

    set_fault(qts, "stuck-reset", 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);      /* not a job fault */
    wr(qts, SYSCONFIG, 1);
    g_assert_cmphex(rd(qts, SYSCONFIG) & 1, ==, 1);
    g_assert_cmphex(rd(qts, PICADDR), ==, PIC_ADDR);   /* not reset */
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 0);       /* used up */
    g_assert_cmphex(rd(qts, SYSCONFIG) & 1, ==, 1);    /* still stuck */
    wr(qts, SYSCONFIG, 1);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);
    g_assert_cmphex(rd(qts, PICADDR), ==, 0);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

/*
 * In standby (FDIF_CTRL.MSTANDBY, no job) the module's clocks may be cut
 * on a real OMAP4: every access but to SYSCONFIG, FDIF_CTRL and the test
 * registers is counted in EMU_STANDBY_ACCESSES, which only a device reset
 * clears; outside standby, or with a job running, nothing is counted.
 */
static void test_standby_accesses(void)
{
    QTestState *qts = start(NULL);

    g_assert_cmpuint(rd(qts, IRQSTATUS(MPU)), ==, 0);
    g_assert_cmpuint(rd(qts, EMU_STANDBY_ACCESSES), ==, 0);
    wr(qts, FDIF_CTRL, MSTANDBY);
    rd(qts, SYSCONFIG);
    rd(qts, FDIF_CTRL);
    g_assert_cmpuint(rd(qts, EMU_STANDBY_ACCESSES), ==, 0);
    rd(qts, IRQSTATUS(MPU));
    wr(qts, IRQENABLE_SET(MPU), FINISH);
    rd(qts, FD_DNUM);
    g_assert_cmpuint(rd(qts, EMU_STANDBY_ACCESSES), ==, 3);
    /* SOFTRESET leaves standby, and keeps the count */
    wr(qts, SYSCONFIG, 1);
    rd(qts, IRQSTATUS(MPU));
    g_assert_cmpuint(rd(qts, EMU_STANDBY_ACCESSES), ==, 3);
    by_system_reset(qts);
    g_assert_cmpuint(rd(qts, EMU_STANDBY_ACCESSES), ==, 0);
    qtest_quit(qts);
}

/*
 * irq-in-standby: entering standby raises the line for 5 ms, with no
 * status bit, whatever the guest does; RUNs do not use the fault up, and
 * entering standby again once it is used up raises nothing.
 */
static void test_fault_irq_in_standby(void)
{
    QTestState *qts = start(NULL);

    set_fault(qts, "irq-in-standby", 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);      /* not a job fault */
    g_assert_cmpuint(rd(qts, EMU_FAULT), !=, 0);
    g_assert_false(irq_pending(qts));
    wr(qts, FDIF_CTRL, MSTANDBY);
    g_assert_true(irq_pending(qts));
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 0);       /* used up */
    qtest_clock_step(qts, 4900 * 1000);
    g_assert_true(irq_pending(qts));
    qtest_clock_step(qts, 200 * 1000);
    g_assert_false(irq_pending(qts));
    /* nothing read in standby meanwhile */
    g_assert_cmpuint(rd(qts, EMU_STANDBY_ACCESSES), ==, 0);
    wr(qts, FDIF_CTRL, 0);
    wr(qts, FDIF_CTRL, MSTANDBY);
    g_assert_false(irq_pending(qts));
    qtest_quit(qts);
}

static void test_fault_dma(void)
{
    QTestState *qts = start(NULL);

    set_fault(qts, "dma", 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    wr(qts, IRQSTATUS(MPU), ERR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

static void test_test_regs(void)
{
    QTestState *qts = start(NULL);

    /* without test-regs=on the guest cannot inject faults */
    wr(qts, EMU_FAULT, 2);
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 0);
    qtest_quit(qts);

    qts = start("test-regs=on");
    wr(qts, EMU_FRAME_TIME, 0);
    g_assert_cmpuint(rd(qts, EMU_FRAME_TIME), ==, 0);
    wr(qts, EMU_FAULT, 99);     /* unknown: ignored */
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 0);
    wr(qts, EMU_FAULT, 2);
    wr(qts, EMU_FAULT_JOBS, 1);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, ERR);
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 0);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

/* Run QEMU itself (no qtest) and return its exit status and stderr. */
static int run_qemu(const char *args, char **err)
{
    g_autofree char *cmd = g_strdup_printf("timeout 60 %s -display none "
                                           "-nodefaults %s",
                                           g_getenv("QTEST_QEMU_BINARY"), args);
    g_auto(GStrv) argv = NULL;
    int status;

    g_assert_true(g_shell_parse_argv(cmd, NULL, &argv, NULL));
    g_assert_true(g_spawn_sync(NULL, argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, err, &status, NULL));
    return status;
}

/*
 * Everything a job leaves behind: DNUM, the face registers and the work
 * area's header and records (the run counter aside).
 */
static GByteArray *job_output(QTestState *qts)
{
    GByteArray *out = g_byte_array_new();
    uint8_t work[WORK_HDR + 256 * WORK_REC];
    uint32_t v, records;
    int i;

    v = rd(qts, FD_DNUM);
    g_byte_array_append(out, (uint8_t *)&v, sizeof(v));
    for (i = 0; i < MAX_FACES; i++) {
        uint32_t face[4] = {
            rd(qts, FD_CENTERX(i)), rd(qts, FD_CENTERY(i)),
            rd(qts, FD_CONFSIZE(i)), rd(qts, FD_ANGLE(i)),
        };

        g_byte_array_append(out, (uint8_t *)face, sizeof(face));
    }
    records = qtest_readl(qts, WORK_ADDR + 28);
    g_assert_cmpuint(records, <=, 256);
    qtest_memread(qts, WORK_ADDR, work, WORK_HDR + records * WORK_REC);
    memset(work + 8, 0, 4);
    g_byte_array_append(out, work, WORK_HDR + records * WORK_REC);
    return out;
}

/*
 * The job split across 1..8 host threads: every register and byte of the
 * work area the same as on one thread, for every direction, and as many
 * detector contexts made as threads (the job was split).
 */
static void test_threads(void)
{
    static const char *const pics[] = { "astronaut", "lfw-60", "hopper" };
    static const unsigned int threads[] = { 1, 2, 3, 8 };
    int p, d, t;

    for (p = 0; p < G_N_ELEMENTS(pics); p++) {
        bool real;
        g_autofree uint8_t *pic = load_fixture(pics[p], &real);

        if (!real) {
            g_test_skip("FDIF_QTEST_FIXTURES not set");
            return;
        }
        for (d = 0; d < 3; d++) {
            g_autoptr(GByteArray) first = NULL;

            for (t = 0; t < G_N_ELEMENTS(threads); t++) {
                g_autofree char *opts =
                    g_strdup_printf("frame-time-us=0,threads=%u", threads[t]);
                QTestState *qts = start(opts);
                g_autoptr(GByteArray) out = NULL;
                int64_t contexts;

                qtest_memwrite(qts, PIC_ADDR, pic, W * H);
                qtest_memset(qts, WORK_ADDR, 0, WORK_HDR + 256 * WORK_REC);
                program(qts, PIC_ADDR, WORK_ADDR);
                wr(qts, FD_DCOND, d << 2);
                wr(qts, FD_CTRL, CTRL_RUN);
                g_assert_true(wait_event(qts, FINISH | ERR));
                g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, FINISH);
                /* the job really was split: one context per worker */
                contexts = qom_get_int(qts, "contexts");
                g_assert_cmpint(contexts, ==, threads[t]);
                out = job_output(qts);
                g_test_message("%s dir %d threads %u: DNUM %u, %d contexts",
                               pics[p], d, threads[t], rd(qts, FD_DNUM),
                               (int)contexts);
                if (!first) {
                    first = g_steal_pointer(&out);
                } else {
                    g_assert_cmpmem(out->data, out->len,
                                    first->data, first->len);
                }
                qtest_quit(qts);
            }
        }
    }
}

/* A thread count out of 1..8 is refused at -device, with a message. */
static void test_threads_bad(void)
{
    static const char *const bad[] = { "0", "9", "4294967295" };
    int i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *err = NULL;
        g_autofree char *args =
            g_strdup_printf("-machine virt -accel qtest "
                            "-device omap4-fdif,threads=%s", bad[i]);

        g_assert_cmpint(run_qemu(args, &err), !=, 0);
        g_test_message("%s", err);
        g_assert_nonnull(strstr(err, "out of range (1..8)"));
    }
}

static void test_bad_model(void)
{
    g_autofree char *err = NULL;

    g_assert_cmpint(run_qemu("-machine virt -accel qtest "
                             "-device omap4-fdif,model=/nonexistent.xml", &err),
                    !=, 0);
    g_test_message("%s", err);
    g_assert_nonnull(strstr(err, "cannot load the face model"));
    /* and says where the default models come from */
    g_assert_nonnull(strstr(err, "opencv-data"));
}

static void test_dtb(void)
{
    g_autofree char *dir = g_dir_make_tmp("fdif-dtb-XXXXXX", NULL);
    g_autofree char *dtb = g_build_filename(dir, "virt.dtb", NULL);
    g_autofree char *args = g_strdup_printf("-machine virt,dumpdtb=%s "
                                            "-device omap4-fdif", dtb);
    g_autofree char *err = NULL;
    g_autofree char *data = NULL;
    static const char compat[] = "ti,omap4-fdif";
    static const char node[] = "fdif@0";  /* relative to the bus ranges */
    gsize len;

    g_assert_cmpint(run_qemu(args, &err), ==, 0);
    g_assert_true(g_file_get_contents(dtb, &data, &len, NULL));
    g_assert_nonnull(memmem(data, len, compat, sizeof(compat)));
    g_assert_nonnull(memmem(data, len, node, sizeof(node)));
    unlink(dtb);
    rmdir(dir);
}

/*
 * Issue 12: a guest must not be able to take the host down.
 */

/* A line "Key:   N kB" of /proc/PID/status, as a number. */
static long proc_status(pid_t pid, const char *key)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status", (int)pid);
    g_autofree char *data = NULL;
    g_auto(GStrv) lines = NULL;
    long v = -1;
    int i;

    g_assert_true(g_file_get_contents(path, &data, NULL, NULL));
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], key) && lines[i][strlen(key)] == ':') {
            v = atol(lines[i] + strlen(key) + 1);
        }
    }
    g_assert_cmpint(v, >=, 0);
    return v;
}

/*
 * RUN, SRST, RUN, ... 10,000 times: each RUN starts a detection that the
 * SRST discards. The QEMU process's memory and threads stay bounded, and
 * the next real job still finds the right face.
 */
static void test_run_srst_storm(void)
{
    g_autofree char *dir = g_dir_make_tmp("fdif-pid-XXXXXX", NULL);
    g_autofree char *pidfile = g_build_filename(dir, "qemu.pid", NULL);
    g_autofree char *pidtext = NULL;
    g_autofree char *opts = g_strdup_printf("-pidfile %s", pidfile);
    QTestState *qts;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);
    long rss0, threads0;
    pid_t pid;
    int i;

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    qts = qtest_initf("-machine virt -nodefaults %s "
                      "-device omap4-fdif,id=fdif", opts);
    g_assert_true(g_file_get_contents(pidfile, &pidtext, NULL, NULL));
    pid = atoi(pidtext);
    g_assert_cmpint(pid, >, 0);

    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);  /* warm up: one job's contexts */
    rss0 = proc_status(pid, "VmRSS");
    threads0 = proc_status(pid, "Threads");
    for (i = 1; i <= 10000; i++) {
        wr(qts, FD_CTRL, CTRL_RUN);
        wr(qts, FD_CTRL, CTRL_SRST);
        if (i % 500 == 0) {
            long rss = proc_status(pid, "VmRSS");
            long threads = proc_status(pid, "Threads");

            g_test_message("after %d RUN/SRST: RSS %ld kB (+%ld), %ld threads",
                           i, rss, rss - rss0, threads);
            /* one active + one discarded job: a few MB, a thread or two */
            g_assert_cmpint(rss - rss0, <, 32 * 1024);
            g_assert_cmpint(threads, <=, threads0 + 4);
        }
    }
    g_assert_cmpint(qom_get_int(qts, "contexts"), <=, 2);
    wait_workers_idle(qts);
    /* discarded detectors did run, and their results were dropped */
    g_test_message("%" PRId64 " discarded results dropped",
                   qom_get_int(qts, "stale-dropped"));
    g_assert_cmpint(qom_get_int(qts, "stale-dropped"), >=, 1);
    /* and were stopped early, not left to scan every level */
    g_test_message("%" PRId64 " of them cut short",
                   qom_get_int(qts, "cut-short"));
    g_assert_cmpint(qom_get_int(qts, "cut-short"), >=, 1);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);

    /* the next real job finds the astronaut's face */
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    check_faces(qts, 1, &t, 1);
    g_assert_cmpint(qom_get_int(qts, "contexts"), <=, 2);
    qtest_quit(qts);
    unlink(pidfile);
    rmdir(dir);
    g_free(pic);
}

/*
 * RUN right after SRST, while the discarded detector is still stopping:
 * the new job is accepted at once, waits for that one to stop (QOM
 * "waited"), then runs and finds the right face; the old result is dropped.
 * A RUN can come after the discarded detector has already stopped, so it
 * tries up to 50 times: the waiting path must have run at least twice.
 * Then an SRST with nothing running clears FD_DNUM (docs/fdif-device.md).
 */
static void test_run_after_srst(void)
{
    QTestState *qts;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);
    int i;

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    /* 8 workers: the new job waits for 8 completions of the old one */
    qts = start("frame-time-us=0,threads=8");
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    for (i = 1; i <= 50 && qom_get_int(qts, "waited") < 2; i++) {
        wr(qts, FD_CTRL, CTRL_RUN);
        wr(qts, FD_CTRL, CTRL_SRST);
        /* one job's workers at most: the discarded one's, if not stopped */
        g_assert_cmpint(qom_get_int(qts, "workers"), <=, 8);
        g_assert_cmphex(run_job(qts), ==, FINISH);
        g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
        check_faces(qts, 1, &t, 1);
        g_assert_cmpuint(rd(qts, EMU_JOBS), ==, i);
        wait_workers_idle(qts);
        g_assert_cmpint(qom_get_int(qts, "stale-dropped"), ==, i);
    }
    g_test_message("%" PRId64 " of %d RUNs waited for the discarded detector",
                   qom_get_int(qts, "waited"), i - 1);
    g_assert_cmpint(qom_get_int(qts, "waited"), >=, 2);
    /* SRST with no job running still clears the last job's face count */
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    wr(qts, FD_CTRL, CTRL_SRST);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    qtest_quit(qts);
    g_free(pic);
}

/* Start a destination QEMU that waits for a migration on @uri. */
static QTestState *start_incoming(const char *opts, const char *uri)
{
    return qtest_initf("-machine virt -nodefaults "
                       "-device omap4-fdif,id=fdif%s%s -incoming %s",
                       opts ? "," : "", opts ? opts : "", uri);
}

static const char *run_status(QTestState *qts)
{
    static char status[32];
    QDict *rsp = qtest_qmp(qts, "{ 'execute': 'query-status' }");

    g_strlcpy(status, qdict_get_str(qdict_get_qdict(rsp, "return"), "status"),
              sizeof(status));
    qobject_unref(rsp);
    return status;
}

/*
 * Migrate @from to @to over @uri; returns once @to runs. The source is
 * stopped first, so that whatever is in flight at that moment migrates.
 */
static void migrate(QTestState *from, QTestState *to, const char *uri)
{
    int i;

    qtest_qmp_assert_success(from, "{ 'execute': 'stop' }");
    qtest_qmp_assert_success(from, "{ 'execute': 'migrate',"
                             " 'arguments': { 'uri': %s } }", uri);
    for (i = 0; i < 30000; i++) {
        QDict *rsp = qtest_qmp(from, "{ 'execute': 'query-migrate' }");
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *status = qdict_get_try_str(ret, "status");
        bool done = status && !strcmp(status, "completed");

        g_assert_cmpstr(status ? status : "", !=, "failed");
        qobject_unref(rsp);
        if (done) {
            break;
        }
        g_usleep(1000);
    }
    g_assert_cmpint(i, <, 30000);
    /* a paused source makes a paused destination */
    for (i = 0; i < 30000 && !strcmp(run_status(to), "inmigrate"); i++) {
        g_usleep(1000);
    }
    g_assert_cmpstr(run_status(to), ==, "paused");
    qtest_qmp_assert_success(to, "{ 'execute': 'cont' }");
    qtest_qmp_eventwait(to, "RESUME");
}

/* A migration's channel: a unix socket in a folder of its own. */
typedef struct MigChannel {
    char *dir, *sock, *uri;
} MigChannel;

static void mig_channel_init(MigChannel *c)
{
    c->dir = g_dir_make_tmp("fdif-mig-XXXXXX", NULL);
    c->sock = g_build_filename(c->dir, "migsock", NULL);
    c->uri = g_strdup_printf("unix:%s", c->sock);
}

/* Quit both machines; the channel can be used for another migration. */
static void mig_quit(MigChannel *c, QTestState *from, QTestState *to)
{
    qtest_quit(from);
    qtest_quit(to);
    unlink(c->sock);
}

static void mig_channel_free(MigChannel *c)
{
    rmdir(c->dir);
    g_free(c->uri);
    g_free(c->sock);
    g_free(c->dir);
}

/*
 * A job in flight migrates: the picture read at RUN (the guest overwrites
 * it afterwards), the time it still has to run, and the result and the
 * interrupt arrive once, on the destination only.
 */
static void test_migrate_busy(void)
{
    MigChannel c;
    QTestState *from, *to;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    mig_channel_init(&c);
    from = start("frame-time-us=20000");
    to = start_incoming("frame-time-us=20000", c.uri);

    qtest_memwrite(from, PIC_ADDR, pic, W * H);
    qtest_memset(from, WORK_ADDR, 0, 64);
    program(from, PIC_ADDR, WORK_ADDR);
    wr(from, FD_CTRL, CTRL_RUN);
    /* the picture has been read: the guest may reuse its buffer */
    qtest_memset(from, PIC_ADDR, 0, W * H);
    /* the engine's time passes on the source; its result is not there yet */
    qtest_clock_step(from, 25 * 1000 * 1000);
    g_assert_cmphex(rd(from, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);

    migrate(from, to, c.uri);

    /* the stopped source never finishes the job, even when its worker has */
    wait_workers_idle(from);
    g_assert_cmphex(rd(from, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_false(irq_pending(from));

    /*
     * the destination does, once (maybe already: the model time had
     * passed on the source, only its detector had to run again)
     */
    g_assert_true(wait_event(to, FINISH | ERR));
    g_assert_true(irq_pending(to));
    g_assert_cmphex(rd(to, IRQSTATUS(MPU)), ==, FINISH);
    g_assert_cmpuint(rd(to, FD_DNUM), ==, 1);
    check_faces(to, 1, &t, 1);
    g_assert_cmpuint(rd(to, EMU_JOBS), ==, 1);
    g_assert_cmphex(qtest_readl(to, WORK_ADDR + 8), ==, 1);
    wr(to, IRQSTATUS(MPU), FINISH);
    qtest_clock_step(to, 500 * 1000 * 1000);
    wait_workers_idle(to);
    g_assert_cmphex(rd(to, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmpuint(rd(to, EMU_JOBS), ==, 1);

    mig_quit(&c, from, to);
    mig_channel_free(&c);
    g_free(pic);
}

/* A job with an injected fault migrates with its fault, taken only once. */
static void test_migrate_fault(void)
{
    MigChannel c;
    QTestState *from, *to;

    /* err, for two jobs: the migrated one is the first */
    mig_channel_init(&c);
    from = start("fault=err,fault-jobs=2");
    to = start_incoming(NULL, c.uri);
    program(from, PIC_ADDR, WORK_ADDR);
    wr(from, FD_CTRL, CTRL_RUN);
    g_assert_cmpuint(rd(from, EMU_FAULT_JOBS), ==, 1);
    migrate(from, to, c.uri);
    g_assert_cmpuint(rd(to, EMU_FAULT_JOBS), ==, 1);
    g_assert_true(wait_event(to, FINISH | ERR));
    g_assert_cmphex(rd(to, IRQSTATUS(MPU)), ==, ERR);
    wr(to, IRQSTATUS(MPU), ERR);
    g_assert_cmpuint(rd(to, EMU_FAULT_JOBS), ==, 1);
    g_assert_cmphex(run_job(to), ==, ERR);
    g_assert_cmphex(run_job(to), ==, FINISH);
    mig_quit(&c, from, to);

    /* hang: still hung on the destination, SRST recovers */
    from = start("fault=hang,fault-jobs=1");
    to = start_incoming(NULL, c.uri);
    program(from, PIC_ADDR, WORK_ADDR);
    wr(from, FD_CTRL, CTRL_RUN);
    migrate(from, to, c.uri);
    qtest_clock_step(to, 1000ULL * 1000 * 1000);
    wait_workers_idle(to);
    qtest_clock_step(to, 1000ULL * 1000 * 1000);
    g_assert_cmphex(rd(to, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmphex(rd(to, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);
    wr(to, FD_CTRL, CTRL_SRST);
    g_assert_cmphex(run_job(to), ==, FINISH);
    mig_quit(&c, from, to);
    mig_channel_free(&c);
}

/*
 * A spurious interrupt being signalled migrates: the destination's line
 * stays up until the handler reads IRQSTATUS, then drops, and the job
 * still finishes there.
 */
static void test_migrate_spurious(void)
{
    MigChannel c;
    QTestState *from, *to;
    int i;

    mig_channel_init(&c);
    from = start("frame-time-us=1000,fault=spurious,fault-jobs=1");
    to = start_incoming("frame-time-us=1000", c.uri);
    program(from, PIC_ADDR, WORK_ADDR);
    wr(from, FD_CTRL, CTRL_RUN);
    for (i = 0; i < 5000 && !irq_pending(from); i++) {
        qtest_clock_step(from, 100 * 1000);
    }
    g_assert_true(irq_pending(from));
    g_assert_cmphex(rd(from, IRQSTATUS_RAW(MPU)), ==, 0);

    migrate(from, to, c.uri);
    g_assert_true(irq_pending(to));
    g_assert_cmphex(rd(to, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_cmphex(rd(to, IRQSTATUS(MPU)), ==, 0);    /* ends the pulse */
    g_assert_false(irq_pending(to));
    g_assert_true(wait_event(to, FINISH | ERR));
    g_assert_cmphex(rd(to, IRQSTATUS(MPU)), ==, FINISH);
    g_assert_cmpuint(rd(to, EMU_JOBS), ==, 1);
    mig_quit(&c, from, to);
    mig_channel_free(&c);
}

/* The pulse migrates, and ends on the destination at its time. */
static void test_migrate_standby_pulse(void)
{
    MigChannel c;
    QTestState *from, *to;

    mig_channel_init(&c);
    from = start("fault=irq-in-standby,fault-jobs=1");
    to = start_incoming(NULL, c.uri);
    wr(from, FDIF_CTRL, MSTANDBY);
    rd(from, IRQSTATUS(MPU));
    g_assert_true(irq_pending(from));
    migrate(from, to, c.uri);
    g_assert_true(irq_pending(to));
    g_assert_cmpuint(rd(to, EMU_STANDBY_ACCESSES), ==, 1);
    qtest_clock_step(to, 6 * 1000 * 1000);
    g_assert_false(irq_pending(to));
    mig_quit(&c, from, to);
    mig_channel_free(&c);
}

/*
 * A stream without the "job" subsection (x-migrate-job=off on the source,
 * as QEMU sent before it existed): the destination reads the picture again
 * when it runs, and finishes the job once, with the right face.
 */
static void test_migrate_legacy(void)
{
    MigChannel c;
    QTestState *from, *to;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    mig_channel_init(&c);
    from = start("x-migrate-job=off");
    to = start_incoming(NULL, c.uri);
    qtest_memwrite(from, PIC_ADDR, pic, W * H);
    program(from, PIC_ADDR, WORK_ADDR);
    wr(from, FD_CTRL, CTRL_RUN);
    migrate(from, to, c.uri);
    g_assert_true(wait_event(to, FINISH | ERR));
    g_assert_cmphex(rd(to, IRQSTATUS(MPU)), ==, FINISH);
    g_assert_cmpuint(rd(to, FD_DNUM), ==, 1);
    check_faces(to, 1, &t, 1);
    g_assert_cmpuint(rd(to, EMU_JOBS), ==, 1);
    mig_quit(&c, from, to);
    mig_channel_free(&c);
    g_free(pic);
}

/* An idle device migrates its registers, results and interrupt state. */
static void test_migrate_idle(void)
{
    MigChannel c;
    static const uint32_t regs[] = {
        SYSCONFIG, IRQSTATUS_RAW(MPU), IRQENABLE_SET(MPU), PICADDR, WKADDR,
        FDIF_CTRL, FD_CTRL, FD_DNUM, FD_DCOND, FD_STARTX, FD_STARTY,
        FD_SIZEX, FD_SIZEY, FD_LHIT, FD_CENTERX(0), FD_CENTERY(0),
        FD_CONFSIZE(0), FD_ANGLE(0), EMU_FRAME_TIME, EMU_JOBS,
    };
    uint32_t before[G_N_ELEMENTS(regs)];
    QTestState *from, *to;
    bool real;
    uint8_t *pic = load_picture(&real);
    unsigned int i;

    mig_channel_init(&c);
    from = start("frame-time-us=1000");
    to = start_incoming("frame-time-us=1000", c.uri);
    qtest_memwrite(from, PIC_ADDR, pic, W * H);
    program(from, PIC_ADDR, WORK_ADDR);
    wr(from, SYSCONFIG, 0x14);
    wr(from, FD_LHIT, 4);
    wr(from, FD_CTRL, CTRL_RUN);
    g_assert_true(wait_event(from, FINISH | ERR));
    g_assert_true(irq_pending(from));
    for (i = 0; i < G_N_ELEMENTS(regs); i++) {
        before[i] = rd(from, regs[i]);
    }
    migrate(from, to, c.uri);
    for (i = 0; i < G_N_ELEMENTS(regs); i++) {
        g_assert_cmphex(rd(to, regs[i]), ==, before[i]);
    }
    g_assert_true(irq_pending(to));
    wr(to, IRQSTATUS(MPU), FINISH | ERR);
    g_assert_false(irq_pending(to));
    g_assert_cmphex(run_job(to), ==, FINISH);
    g_assert_cmpuint(rd(to, EMU_JOBS), ==, before[G_N_ELEMENTS(regs) - 1] + 1);
    mig_quit(&c, from, to);
    mig_channel_free(&c);
    g_free(pic);
}

/*
 * The detector finishing while the VM is stopped raises nothing until the
 * VM runs again.
 */
static void test_stopped_vm(void)
{
    QTestState *qts = start("frame-time-us=1000");
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);
    int tries;

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        qtest_quit(qts);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    for (tries = 0; tries < 5; tries++) {
        wr(qts, FD_CTRL, CTRL_RUN);
        qtest_clock_step(qts, 2 * 1000 * 1000);    /* the model time is over */
        qtest_qmp_assert_success(qts, "{ 'execute': 'stop' }");
        if (rd(qts, FD_CTRL) & CTRL_RUN) {
            break;      /* stopped before the detector was done */
        }
        /* the host was quicker than us: again */
        qtest_qmp_assert_success(qts, "{ 'execute': 'cont' }");
        wr(qts, IRQSTATUS(MPU), FINISH | ERR);
    }
    g_assert_cmpint(tries, <, 5);
    wait_workers_idle(qts);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    g_assert_false(irq_pending(qts));
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);

    qtest_qmp_assert_success(qts, "{ 'execute': 'cont' }");
    g_assert_true(wait_event(qts, FINISH | ERR));
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, FINISH);
    g_assert_true(irq_pending(qts));
    check_faces(qts, 1, &t, 1);
    qtest_quit(qts);
    g_free(pic);
}

/* Record/replay cannot replay a host thread's timing: refused, with why. */
static void test_replay_blocked(void)
{
    g_autofree char *dir = g_dir_make_tmp("fdif-rr-XXXXXX", NULL);
    g_autofree char *log = g_build_filename(dir, "replay.bin", NULL);
    g_autofree char *args = g_strdup_printf("-machine virt -S -monitor none "
                                            "-icount shift=1,rr=record,"
                                            "rrfile=%s -device omap4-fdif",
                                            log);
    g_autofree char *err = NULL;
    int status;

    status = run_qemu(args, &err);
    g_test_message("%s", err);
    g_assert_true(WIFEXITED(status));
    g_assert_cmpint(WEXITSTATUS(status), ==, 1);
    g_assert_nonnull(strstr(err, "omap4-fdif"));
    unlink(log);
    rmdir(dir);
}

/* Run a job; ERR must be raised at once, before any time passes. */
static void assert_refused(QTestState *qts)
{
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    wr(qts, IRQSTATUS(MPU), ERR);
}

/* DMA only to and from RAM: MMIO, ROM and the end of RAM give ERR. */
static void test_dma_not_ram(void)
{
    static const uint64_t ram_end = 0x48000000ULL;     /* 128 MiB at 1 GiB */
    QTestState *qts = start(NULL);
    bool real;
    uint8_t *pic = load_picture(&real);
    int i;

    qtest_memwrite(qts, PIC_ADDR, pic, W * H);

    /* the picture in the device's own registers, in the GIC, in flash */
    program(qts, FDIF_BASE, WORK_ADDR);
    assert_refused(qts);
    program(qts, GICD_BASE, WORK_ADDR);
    assert_refused(qts);
    program(qts, 0, WORK_ADDR);
    assert_refused(qts);
    /* a picture running off the end of RAM */
    program(qts, ram_end - 0x1000, WORK_ADDR);
    assert_refused(qts);

    /*
     * the work area on the device's own registers: the results must not
     * reach SYSCONFIG (a soft reset) or anything else there
     */
    program(qts, PIC_ADDR, FDIF_BASE);
    wr(qts, SYSCONFIG, 0x14);
    assert_refused(qts);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0x14);
    g_assert_cmphex(rd(qts, PICADDR), ==, PIC_ADDR);
    g_assert_cmphex(rd(qts, IRQENABLE_SET(MPU)), ==, FINISH | ERR);
    /* in flash (a ROM device) */
    program(qts, PIC_ADDR, 0);
    assert_refused(qts);
    /* running off the end of RAM: the header fits, the records would not */
    for (i = 0; i < 64; i += 4) {
        qtest_writel(qts, ram_end - 64 + i, 0);
    }
    program(qts, PIC_ADDR, ram_end - 64);
    assert_refused(qts);
    qtest_clock_step(qts, 100 * 1000 * 1000);
    g_assert_cmphex(qtest_readl(qts, ram_end - 64), ==, 0);
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);

    /* and RAM works */
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, EMU_JOBS), ==, 1);
    qtest_quit(qts);
    g_free(pic);
}

/*
 * The address registers are 32 bits: with RAM past 4 GiB (-m 4G on virt
 * is RAM from 1 GiB to 5 GiB), a picture or work area that would run past
 * 4 GiB is refused at RUN, and nothing above 4 GiB is touched.
 */
static void test_dma_4gib(void)
{
    static const uint64_t top = 0x100000000ULL;
    QTestState *qts = qtest_init("-machine virt -cpu cortex-a57 -m 4G -nodefaults "
                                 "-device omap4-fdif,id=fdif");
    bool real;
    uint8_t *pic = load_picture(&real);
    uint64_t work_last = top - 53248;   /* a work area ending at 4 GiB */
    int i;

    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    for (i = 0; i < 64; i += 4) {
        qtest_writel(qts, top + i, 0x5a5a5a5a);
        qtest_writel(qts, top - 64 + i, 0);
    }
    /* the work area's header fits below 4 GiB, its records would not */
    program(qts, PIC_ADDR, top - 32);
    g_assert_cmphex(rd(qts, WKADDR), ==, top - 32);
    assert_refused(qts);
    /* a picture running past 4 GiB */
    program(qts, top - 0x1000, WORK_ADDR);
    assert_refused(qts);
    qtest_clock_step(qts, 100 * 1000 * 1000);
    for (i = 0; i < 64; i += 4) {
        g_assert_cmphex(qtest_readl(qts, top + i), ==, 0x5a5a5a5a);
        g_assert_cmphex(qtest_readl(qts, top - 64 + i), ==, 0);
    }
    g_assert_cmphex(rd(qts, IRQSTATUS_RAW(MPU)), ==, 0);
    /* up to the last byte below 4 GiB is fine */
    program(qts, PIC_ADDR, work_last);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmphex(qtest_readl(qts, work_last), ==, 0x4b574446);  /* FDWK */
    for (i = 0; i < 64; i += 4) {
        g_assert_cmphex(qtest_readl(qts, top + i), ==, 0x5a5a5a5a);
    }
    qtest_quit(qts);
    g_free(pic);
}

/*
 * The detector's evaluator is a property (not the environment): each one
 * finds the same faces, in the same result registers; others are refused.
 */
static void test_evaluator(void)
{
    static const char *const evals[] = { "auto", "sse2", "scalar", "reference" };
    uint32_t want[MAX_FACES * 4];
    bool real;
    uint8_t *pic = load_picture(&real);
    g_autofree char *err = NULL;
    int i, j;

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(evals); i++) {
        g_autofree char *opts = g_strdup_printf("evaluator=%s", evals[i]);
        QTestState *qts = start(opts);

        qtest_memwrite(qts, PIC_ADDR, pic, W * H);
        program(qts, PIC_ADDR, WORK_ADDR);
        g_assert_cmphex(run_job(qts), ==, FINISH);
        g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
        for (j = 0; j < MAX_FACES * 4; j++) {
            uint32_t v = rd(qts, FD_CENTERX(0) + j * 4);

            if (i == 0) {
                want[j] = v;
            } else {
                g_assert_cmphex(v, ==, want[j]);
            }
        }
        qtest_quit(qts);
    }
    g_assert_cmpint(run_qemu("-machine virt -accel qtest "
                             "-device omap4-fdif,evaluator=fast", &err), !=, 0);
    g_test_message("%s", err);
    g_assert_nonnull(strstr(err, "must be auto, sse2, scalar or reference"));
    g_free(pic);
}

/*
 * The work area stops being RAM while the job runs: it is in the RAM BAR
 * of a PCI device (ivshmem-plain) whose memory decoding the guest turns
 * off mid-job, as a guest reprogramming its PCI devices may. The job ends
 * with ERR, not FINISH, and writes nothing there; RAM works again after.
 */
#define ECAM_BASE           0x3f000000ULL   /* virt, highmem=off */
#define PCI_CFG(dev, reg)   (ECAM_BASE + ((dev) << 15) + (reg))
#define SHM_DEV             2
#define SHM_BAR             0x10000000ULL   /* the low PCI MMIO window */

static void shm_decode(QTestState *qts, bool on)
{
    qtest_writew(qts, PCI_CFG(SHM_DEV, 0x04), on ? 0x0002 : 0);  /* COMMAND */
}

static void test_work_area_unmapped(void)
{
    QTestState *qts = qtest_initf("-machine virt,highmem=off -nodefaults "
        "-object memory-backend-ram,id=shm,size=1M,share=on "
        "-device ivshmem-plain,memdev=shm,addr=%d.0 "
        "-device omap4-fdif,id=fdif,frame-time-us=50000", SHM_DEV);
    bool real;
    uint8_t *pic = load_picture(&real);
    int i;

    /* BAR2 (64-bit memory) at the start of the PCI MMIO window */
    g_assert_cmphex(qtest_readw(qts, PCI_CFG(SHM_DEV, 0x00)), ==, 0x1af4);
    qtest_writel(qts, PCI_CFG(SHM_DEV, 0x18), SHM_BAR);
    qtest_writel(qts, PCI_CFG(SHM_DEV, 0x1c), 0);
    shm_decode(qts, true);
    for (i = 0; i < 64; i += 4) {
        qtest_writel(qts, SHM_BAR + i, 0);
    }
    qtest_writel(qts, SHM_BAR, 0x12345678);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR), ==, 0x12345678);

    /* a job with its work area there runs, and finishes, as in RAM */
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, SHM_BAR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR), ==, 0x4b574446);  /* FDWK */

    /* the BAR goes away mid-job: ERR, and nothing written there */
    qtest_writel(qts, SHM_BAR, 0x12345678);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, CTRL_RUN);
    shm_decode(qts, false);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR), !=, 0x12345678);
    g_assert_true(wait_event(qts, FINISH | ERR));
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    g_assert_cmpuint(rd(qts, EMU_JOBS), ==, 1);
    wr(qts, IRQSTATUS(MPU), ERR);
    shm_decode(qts, true);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR), ==, 0x12345678);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR + 8), ==, 1);   /* one run */

    /* and a work area in RAM works */
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, EMU_JOBS), ==, 2);
    qtest_quit(qts);
    g_free(pic);
}

/*
 * Read-only memory: the engine may read a picture from it, but not keep
 * its work area there (the header and records are written). A 1 MiB
 * read-only file (memory-backend-file readonly=on) behind an ivshmem-plain
 * BAR holds the picture: a job with the work area in RAM finds the
 * astronaut; one with the work area in that BAR is refused at RUN, and
 * the BAR is left as it was.
 */
static void test_work_area_rom(void)
{
    g_autofree char *path = NULL;
    bool real;
    g_autofree uint8_t *pic = load_picture(&real);
    GError *err = NULL;
    QTestState *qts;
    uint32_t first4;
    Box t;
    int fd;

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    first4 = pic[0] | pic[1] << 8 | pic[2] << 16 | (uint32_t)pic[3] << 24;
    fd = g_file_open_tmp("omap4-fdif-rom-XXXXXX", &path, &err);
    g_assert_no_error(err);
    g_assert_cmpint(ftruncate(fd, 1 << 20), ==, 0);
    g_assert_cmpint(pwrite(fd, pic, W * H, 0), ==, W * H);
    close(fd);
    qts = qtest_initf("-machine virt,highmem=off -nodefaults "
        "-object memory-backend-file,id=shm,size=1M,share=on,readonly=on,mem-path=%s "
        "-device ivshmem-plain,memdev=shm,addr=%d.0 "
        "-device omap4-fdif,id=fdif,frame-time-us=0", path, SHM_DEV);
    qtest_writel(qts, PCI_CFG(SHM_DEV, 0x18), SHM_BAR);
    qtest_writel(qts, PCI_CFG(SHM_DEV, 0x1c), 0);
    shm_decode(qts, true);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR), ==, first4);

    /* the picture in read-only memory: read, and the face found */
    program(qts, SHM_BAR, WORK_ADDR);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    check_faces(qts, 1, &t, 1);

    /* the work area there: refused at RUN, nothing written */
    program(qts, PIC_ADDR, SHM_BAR);
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_cmphex(rd(qts, FD_CTRL) & CTRL_RUN, ==, 0);
    g_assert_cmpuint(rd(qts, EMU_JOBS), ==, 1);
    g_assert_cmphex(qtest_readl(qts, SHM_BAR), ==, first4);
    qtest_quit(qts);
    unlink(path);
}

/* A system reset puts the test registers back to the property values. */
static void test_reset_test_regs(void)
{
    QTestState *qts = start("test-regs=on,frame-time-us=2000,"
                            "fault=spurious,fault-jobs=3");

    wr(qts, EMU_FRAME_TIME, 7);
    wr(qts, EMU_FAULT, 1);
    wr(qts, EMU_FAULT_JOBS, 5);
    g_assert_cmpuint(rd(qts, EMU_FRAME_TIME), ==, 7);
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 1);
    g_assert_cmpuint(rd(qts, EMU_FAULT_JOBS), ==, 5);
    by_system_reset(qts);
    g_assert_cmpuint(rd(qts, EMU_FRAME_TIME), ==, 2000);
    g_assert_cmpuint(rd(qts, EMU_FAULT), ==, 3);
    g_assert_cmpuint(rd(qts, EMU_FAULT_JOBS), ==, 3);
    qtest_quit(qts);
}

/* A RUN refused for its parameters does not use up an injected fault. */
static void test_fault_bad_params(void)
{
    QTestState *qts = start("fault=err,fault-jobs=1");

    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_LHIT, 10);
    assert_refused(qts);
    g_assert_cmpuint(rd(qts, EMU_FAULT_JOBS), ==, 1);
    wr(qts, FD_LHIT, 5);
    g_assert_cmphex(run_job(qts), ==, ERR);       /* the injected one */
    g_assert_cmphex(run_job(qts), ==, FINISH);
    qtest_quit(qts);
}

/* The device's properties, including its DMA address space link. */
static void test_properties(void)
{
    QTestState *qts = qtest_init("-machine none");
    QDict *rsp = qtest_qmp(qts, "{ 'execute': 'device-list-properties',"
                           " 'arguments': { 'typename': 'omap4-fdif' } }");
    QList *props = qdict_get_qlist(rsp, "return");
    const QListEntry *e;
    bool memory = false;

    g_assert_nonnull(props);
    QLIST_FOREACH_ENTRY(props, e) {
        QDict *p = qobject_to(QDict, qlist_entry_obj(e));

        if (!strcmp(qdict_get_str(p, "name"), "memory")) {
            memory = true;
            g_assert_cmpstr(qdict_get_str(p, "type"), ==,
                            "link<memory-region>");
        }
    }
    g_assert_true(memory);
    qobject_unref(rsp);
    qtest_quit(qts);
}

/* One detection on fixture @name with FD_DCOND @dcond and FD_LHIT @lhit. */
static QTestState *detect_fixture(const char *name, uint32_t dcond,
                                  uint32_t lhit, uint32_t *dnum)
{
    QTestState *qts = start("frame-time-us=0");
    bool real;
    g_autofree uint8_t *pic = load_fixture(name, &real);

    g_assert_true(real);
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_DCOND, dcond);
    wr(qts, FD_LHIT, lhit);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    *dnum = rd(qts, FD_DNUM);
    g_test_message("%s dcond 0x%x lhit %u: DNUM %u", name, dcond, lhit, *dnum);
    return qts;
}

/* FD_DCOND: minimum face size (bits 1:0) and face direction (bits 3:2). */

/* The minimum face size of each FD_DCOND[1:0] value (the TRM's table). */
static const uint32_t dcond_min_sizes[4] = { 20, 25, 32, 40 };
/*
 * FD_DCOND's minimum size field, every value: the faces of lfw-60 (28 px
 * boxes) at 20 px and up, and at each larger minimum (25, 32, 40 px, the
 * TRM's table) no face under it and no more faces than the smaller
 * minimum found.
 */
static void test_dcond_min_sizes(void)
{
    uint32_t dnum, last = ~0u, i, k;
    QTestState *qts;

    if (!g_getenv("FDIF_QTEST_FIXTURES")) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        return;
    }
    for (k = 0; k < G_N_ELEMENTS(dcond_min_sizes); k++) {
        uint32_t smallest = 0xff;

        qts = detect_fixture("lfw-60", k, 5, &dnum);
        for (i = 0; i < dnum; i++) {
            smallest = MIN(smallest, rd(qts, FD_CONFSIZE(i)) & 0xff);
        }
        g_test_message("min size %u: %u faces, the smallest %u px",
                       dcond_min_sizes[k], dnum,
                       dnum ? smallest : 0);
        if (dnum) {
            g_assert_cmpuint(smallest, >=, dcond_min_sizes[k]);
        }
        g_assert_cmpuint(dnum, <=, last);
        if (k == 0) {
            g_assert_cmpuint(dnum, >, 0);
        }
        last = dnum;
        qtest_quit(qts);
    }
}

/*
 * The windows a scan of a @w x @h picture visits with a @win px square
 * model at minimum size @min, by the pyramid rule of docs/detector.md
 * (worked out here, not asked of the detector): levels at scale
 * f = 1.1^k, the window round(win f) (scanned only if at least @min), the
 * picture resized to round(w / f) x round(h / f), positions every 2 px in
 * both axes while f <= 2 and every pixel above, until the window no
 * longer fits.
 */
static uint64_t pyramid_windows(int w, int h, int win, int min)
{
    uint64_t n = 0;
    double f;

    for (f = 1.0;; f *= 1.1) {
        int pw = (int)floor(w / f + 0.5) - win, ph = (int)floor(h / f + 0.5) - win;
        int step = f > 2.0 ? 1 : 2;

        if (pw <= 0 || ph <= 0) {
            return n;
        }
        if ((int)floor(win * f + 0.5) >= min) {
            n += (uint64_t)((pw + step - 1) / step) * ((ph + step - 1) / step);
        }
    }
}

/*
 * FD_DCOND's minimum size, by the windows the engine visits: with a
 * 10x10 model, whose level of 31 px lies between the table's 30 and 32,
 * every entry of the table scans its own set of levels. The model is one
 * the test writes: its first stage passes every window and its second
 * fails every one, so no window is skipped (a window that fails the first
 * stage makes a Haar scan skip its neighbour) and none is a face. The
 * work area's count of windows must be the pyramid rule's, for the upright
 * scan of the ROI and its two copies turned by 20 degrees (383x335 for
 * 320x240: docs/detector.md).
 */
static void test_dcond_windows(void)
{
    static const char cascade[] =
        "<?xml version=\"1.0\"?><opencv_storage><cascade>"
        "<stageType>BOOST</stageType><featureType>HAAR</featureType>"
        "<width>10</width><height>10</height><stages>"
        "<_><stageThreshold>-1.</stageThreshold><weakClassifiers><_>"
        "<internalNodes>0 -1 0 0.5</internalNodes><leafValues>1. 1.</leafValues>"
        "</_></weakClassifiers></_>"
        "<_><stageThreshold>1.</stageThreshold><weakClassifiers><_>"
        "<internalNodes>0 -1 0 0.5</internalNodes><leafValues>-1. -1.</leafValues>"
        "</_></weakClassifiers></_>"
        "</stages><features><_><rects><_>0 0 4 4 -1.</_><_>0 0 2 2 4.</_></rects>"
        "<tilted>0</tilted></_></features></cascade></opencv_storage>";
    g_autofree char *dir = g_dir_make_tmp("fdif-model-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "never.xml", NULL);
    g_autofree char *opts = g_strdup_printf("frame-time-us=0,model=%s", path);
    g_autofree uint8_t *pic = g_malloc(W * H);
    const double t = 20 * M_PI / 180;
    const int cw = (int)ceil(W * cos(t) + H * sin(t) - 1e-9);
    const int ch = (int)ceil(W * sin(t) + H * cos(t) - 1e-9);
    QTestState *qts;
    uint32_t k, i;

    g_assert_true(g_file_set_contents(path, cascade, -1, NULL));
    for (i = 0; i < W * H; i++) {
        pic[i] = (i * 2654435761u) >> 24;   /* any picture: no window passes */
    }
    qts = start(opts);
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    for (k = 0; k < G_N_ELEMENTS(dcond_min_sizes); k++) {
        uint64_t want = pyramid_windows(W, H, 10, dcond_min_sizes[k]) +
                        2 * pyramid_windows(cw, ch, 10, dcond_min_sizes[k]);

        wr(qts, FD_DCOND, k);   /* direction up */
        g_assert_cmphex(run_job(qts), ==, FINISH);
        g_test_message("min size %u: %u windows, the rule says %" PRIu64,
                       dcond_min_sizes[k], qtest_readl(qts, WORK_ADDR + 16), want);
        g_assert_cmpuint(qtest_readl(qts, WORK_ADDR + 12), ==, 3);    /* scans */
        g_assert_cmpuint(qtest_readl(qts, WORK_ADDR + 16), ==, want);
        g_assert_cmpuint(qtest_readl(qts, WORK_ADDR + 20), ==, 0);    /* raw hits */
        g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    }
    qtest_quit(qts);
    g_assert_cmpint(unlink(path), ==, 0);
    g_assert_cmpint(rmdir(dir), ==, 0);
}

/*
 * A RUN that fails its checks leaves no face of the job before it behind:
 * FD_DNUM and every result register read 0.
 */
static void test_error_clears_results(void)
{
    uint32_t dnum, i;
    QTestState *qts;

    if (!g_getenv("FDIF_QTEST_FIXTURES")) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        return;
    }
    qts = detect_fixture("lfw-15", 0, 5, &dnum);
    g_assert_cmpuint(dnum, >, 0);
    g_assert_cmpuint(rd(qts, FD_CENTERX(0)), !=, 0);
    wr(qts, FD_LHIT, 10);       /* out of range: the next RUN fails */
    wr(qts, FD_CTRL, CTRL_RUN);
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, ERR);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    for (i = 0; i < 35; i++) {
        g_assert_cmpuint(rd(qts, FD_CENTERX(i)), ==, 0);
        g_assert_cmpuint(rd(qts, FD_CENTERY(i)), ==, 0);
        g_assert_cmpuint(rd(qts, FD_CONFSIZE(i)), ==, 0);
        g_assert_cmpuint(rd(qts, FD_ANGLE(i)), ==, 0);
    }
    qtest_quit(qts);
}

static void test_dcond(void)
{
    Box truth[64], t;
    QTestState *qts;
    uint32_t dnum, dnum20;
    int n, i;

    if (!g_getenv("FDIF_QTEST_FIXTURES")) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        return;
    }
    /* the astronaut's face (a 38x51 box) is larger than 40 px... */
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    qts = detect_fixture("astronaut", 3, 5, &dnum);
    g_assert_cmpuint(dnum, ==, 1);
    check_faces(qts, 1, &t, 1);
    qtest_quit(qts);
    /* ...the 60 faces of lfw-60 (28 px boxes) are not */
    n = load_truth("lfw-60", truth, G_N_ELEMENTS(truth));
    qts = detect_fixture("lfw-60", 0, 5, &dnum20);
    qtest_quit(qts);
    qts = detect_fixture("lfw-60", 3, 5, &dnum);
    g_assert_cmpuint(dnum, <, dnum20);
    for (i = 0; i < dnum; i++) {
        g_assert_cmpuint(rd(qts, FD_CONFSIZE(i)) & 0xff, >=, 40);
    }
    qtest_quit(qts);
    (void)n;

    /* direction: right (1) finds the face turned clockwise, up (0) not */
    g_assert_cmpint(load_truth("astronaut-cw90", &t, 1), ==, 1);
    qts = detect_fixture("astronaut-cw90", 1 << 2, 5, &dnum);
    g_assert_cmpuint(dnum, ==, 1);
    check_faces(qts, 1, &t, 1);
    g_assert_cmpuint(rd(qts, FD_ANGLE(0)), >=, 60);
    g_assert_cmpuint(rd(qts, FD_ANGLE(0)), <=, 120);
    qtest_quit(qts);
    qts = detect_fixture("astronaut-cw90", 0, 5, &dnum);
    g_assert_cmpuint(dnum, ==, 0);
    qtest_quit(qts);
    /* left (2) finds the one turned counter-clockwise */
    g_assert_cmpint(load_truth("astronaut-ccw90", &t, 1), ==, 1);
    qts = detect_fixture("astronaut-ccw90", 2 << 2, 5, &dnum);
    g_assert_cmpuint(dnum, ==, 1);
    check_faces(qts, 1, &t, 1);
    g_assert_cmpuint(rd(qts, FD_ANGLE(0)), >=, 240);
    g_assert_cmpuint(rd(qts, FD_ANGLE(0)), <=, 300);
    qtest_quit(qts);
}

/*
 * FD_LHIT: a stricter threshold keeps no more candidate faces (the work
 * area's count, before the 35-face cap), and the faces it reports are real.
 */
static void test_lhit(void)
{
    static const uint32_t lhits[] = { 0, 5, 9 };
    uint32_t records[G_N_ELEMENTS(lhits)];
    Box truth[64];
    QTestState *qts;
    uint32_t dnum, dnum9;
    unsigned int i;
    int n;

    if (!g_getenv("FDIF_QTEST_FIXTURES")) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(lhits); i++) {
        qts = detect_fixture("lfw-60", 0, lhits[i], &dnum);
        records[i] = qtest_readl(qts, WORK_ADDR + 28);
        g_test_message("LHIT %u: %u candidates", lhits[i], records[i]);
        if (i > 0) {
            g_assert_cmpuint(records[i], <=, records[i - 1]);
        }
        qtest_quit(qts);
    }
    g_assert_cmpuint(records[2], <, records[0]);

    n = load_truth("lfw-15", truth, G_N_ELEMENTS(truth));
    qts = detect_fixture("lfw-15", 0, 5, &dnum);
    qtest_quit(qts);
    qts = detect_fixture("lfw-15", 0, 9, &dnum9);
    g_assert_cmpuint(dnum9, >=, 1);
    g_assert_cmpuint(dnum9, <=, dnum);
    check_faces(qts, dnum9, truth, n);
    qtest_quit(qts);
}

/*
 * A region of interest away from the origin: the faces come in picture
 * coordinates. The largest origin with the smallest and largest sizes.
 */
static void test_roi(void)
{
    QTestState *qts;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    qts = start("frame-time-us=0");
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    /* around the face, from (100,20) */
    g_assert_cmpfloat(t.x, >, 100);
    g_assert_cmpfloat(t.y, >, 20);
    g_assert_cmpfloat(t.x + t.w, <, 100 + 120);
    g_assert_cmpfloat(t.y + t.h, <, 20 + 100);
    wr(qts, FD_STARTX, 100);
    wr(qts, FD_STARTY, 20);
    wr(qts, FD_SIZEX, 120);
    wr(qts, FD_SIZEY, 100);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    check_faces(qts, 1, &t, 1);

    /* boundary values are accepted */
    wr(qts, FD_STARTX, 160);
    wr(qts, FD_SIZEX, 160);
    wr(qts, FD_STARTY, 120);
    wr(qts, FD_SIZEY, 120);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    wr(qts, FD_SIZEX, 20);
    wr(qts, FD_SIZEY, 20);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 0);
    wr(qts, FD_STARTX, 0);
    wr(qts, FD_STARTY, 0);
    wr(qts, FD_SIZEX, 320);
    wr(qts, FD_SIZEY, 240);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    qtest_quit(qts);
    g_free(pic);
}

/* The work area: statistics and every face record. */
static void test_work_area(void)
{
    Box truth[64];
    QTestState *qts;
    uint32_t dnum, scans, windows, raw, groups, n, i;
    bool reported[MAX_FACES] = { false };
    int marked;

    if (!g_getenv("FDIF_QTEST_FIXTURES")) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        return;
    }
    marked = load_truth("lfw-15", truth, G_N_ELEMENTS(truth));
    qts = detect_fixture("lfw-15", 0, 5, &dnum);
    g_assert_cmpuint(dnum, ==, 15);
    scans = qtest_readl(qts, WORK_ADDR + 12);
    windows = qtest_readl(qts, WORK_ADDR + 16);
    raw = qtest_readl(qts, WORK_ADDR + 20);
    groups = qtest_readl(qts, WORK_ADDR + 24);
    n = qtest_readl(qts, WORK_ADDR + 28);
    g_test_message("scans %u windows %u raw hits %u groups %u records %u",
                   scans, windows, raw, groups, n);
    g_assert_cmpuint(scans, >=, 1);
    g_assert_cmpuint(windows, >, raw);
    g_assert_cmpuint(raw, >=, groups);
    g_assert_cmpuint(groups, >=, n);
    g_assert_cmpuint(n, >=, dnum);
    for (i = 0; i < n; i++) {
        uint64_t rec = WORK_ADDR + WORK_HDR + i * WORK_REC;

        if (i < dnum) {
            /* the reported faces, field by field, each one once */
            int j = face_of_record(qts, rec, dnum);

            g_assert_cmpint(j, >=, 0);
            g_assert_false(reported[j]);
            reported[j] = true;
        }
        g_assert_cmpuint(qtest_readw(qts, rec + 6), <, 360);
        g_assert_cmpuint(qtest_readw(qts, rec + 8), <=, 9);
        g_assert_cmpuint(qtest_readw(qts, rec + 10), ==, 0);
        g_assert_cmpuint(qtest_readl(qts, rec + 12), >=, 1);
    }
    check_faces(qts, dnum, truth, marked);
    qtest_quit(qts);
}

/*
 * 32-bit registers only: the memory core rejects 8- and 16-bit accesses
 * (a CPU takes an external abort; here, reads give 0 and writes are
 * dropped). Unknown registers read 0 and ignore writes.
 */
static void test_access_sizes(void)
{
    static const uint32_t unknown[] = { 0x008, 0x0a0, 0x100, 0x3f0, 0xf14,
                                        0xffc };
    QTestState *qts = start(NULL);
    unsigned int i;

    g_assert_cmphex(qtest_readb(qts, FDIF_BASE + REVISION), ==, 0);
    g_assert_cmphex(qtest_readw(qts, FDIF_BASE + REVISION), ==, 0);
    g_assert_cmphex(qtest_readw(qts, FDIF_BASE + REVISION + 2), ==, 0);
    g_assert_cmphex(rd(qts, REVISION), ==, 0x50000201);
    qtest_writeb(qts, FDIF_BASE + FD_LHIT, 9);
    qtest_writew(qts, FDIF_BASE + FD_LHIT, 9);
    g_assert_cmphex(rd(qts, FD_LHIT), ==, 5);
    qtest_writeb(qts, FDIF_BASE + SYSCONFIG, 0x14);
    g_assert_cmphex(rd(qts, SYSCONFIG), ==, 0);
    for (i = 0; i < G_N_ELEMENTS(unknown); i++) {
        wr(qts, unknown[i], 0xffffffff);
        g_assert_cmphex(rd(qts, unknown[i]), ==, 0);
    }
    qtest_quit(qts);
}

/* Master standby requested while busy: HDSHK only once the job is over. */
static void test_hdshk_busy(void)
{
    QTestState *qts = start("frame-time-us=20000");

    program(qts, PIC_ADDR, WORK_ADDR);
    wr(qts, FD_CTRL, CTRL_RUN);
    wr(qts, FDIF_CTRL, (0xa << 1) | 1);
    g_assert_cmphex(rd(qts, FDIF_CTRL), ==, (0xa << 1) | 1);
    g_assert_true(wait_event(qts, FINISH | ERR));
    g_assert_cmphex(rd(qts, IRQSTATUS(MPU)), ==, FINISH);
    g_assert_cmphex(rd(qts, FDIF_CTRL), ==, (0xa << 1) | 1 | (1 << 5));
    qtest_quit(qts);
}

/* frame-time-us=0: as fast as the host, the same faces. */
static void test_frame_time_zero(void)
{
    QTestState *qts;
    Box t;
    bool real;
    uint8_t *pic = load_picture(&real);

    if (!real) {
        g_test_skip("FDIF_QTEST_FIXTURES not set");
        g_free(pic);
        return;
    }
    g_assert_cmpint(load_truth("astronaut", &t, 1), ==, 1);
    qts = start("frame-time-us=0");
    qtest_memwrite(qts, PIC_ADDR, pic, W * H);
    program(qts, PIC_ADDR, WORK_ADDR);
    g_assert_cmpuint(rd(qts, EMU_FRAME_TIME), ==, 0);
    g_assert_cmphex(run_job(qts), ==, FINISH);
    g_assert_cmpuint(rd(qts, FD_DNUM), ==, 1);
    check_faces(qts, 1, &t, 1);
    qtest_quit(qts);
    g_free(pic);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);

    qtest_add_func("/omap4-fdif/reset-values", test_reset_values);
    qtest_add_func("/omap4-fdif/registers", test_registers);
    qtest_add_func("/omap4-fdif/soft-reset", test_soft_reset);
    qtest_add_func("/omap4-fdif/irq", test_irq);
    qtest_add_func("/omap4-fdif/detect", test_detect);
    qtest_add_func("/omap4-fdif/many-faces", test_many_faces);
    qtest_add_func("/omap4-fdif/timing", test_timing);
    qtest_add_func("/omap4-fdif/bad-dma", test_bad_dma);
    qtest_add_func("/omap4-fdif/bad-params", test_bad_params);
    qtest_add_func("/omap4-fdif/run-while-busy", test_run_while_busy);
    qtest_add_func("/omap4-fdif/reset-mid-job", test_reset_mid_job);
    qtest_add_func("/omap4-fdif/fault/hang", test_fault_hang);
    qtest_add_func("/omap4-fdif/fault/err", test_fault_err);
    qtest_add_func("/omap4-fdif/fault/irq-in-standby",
                   test_fault_irq_in_standby);
    qtest_add_func("/omap4-fdif/standby-accesses", test_standby_accesses);
    qtest_add_func("/omap4-fdif/migrate/standby-pulse",
                   test_migrate_standby_pulse);
    qtest_add_func("/omap4-fdif/fault/spurious", test_fault_spurious);
    qtest_add_func("/omap4-fdif/fault/spurious-srst", test_fault_spurious_srst);
    qtest_add_func("/omap4-fdif/fault/dma", test_fault_dma);
    qtest_add_func("/omap4-fdif/fault/stuck-reset", test_fault_stuck_reset);
    qtest_add_func("/omap4-fdif/test-regs", test_test_regs);
    qtest_add_func("/omap4-fdif/bad-model", test_bad_model);
    qtest_add_func("/omap4-fdif/dtb", test_dtb);
    qtest_add_func("/omap4-fdif/run-srst-storm", test_run_srst_storm);
    qtest_add_func("/omap4-fdif/run-after-srst", test_run_after_srst);
    qtest_add_func("/omap4-fdif/migrate/busy", test_migrate_busy);
    qtest_add_func("/omap4-fdif/migrate/fault", test_migrate_fault);
    qtest_add_func("/omap4-fdif/migrate/spurious", test_migrate_spurious);
    qtest_add_func("/omap4-fdif/migrate/legacy", test_migrate_legacy);
    qtest_add_func("/omap4-fdif/migrate/idle", test_migrate_idle);
    qtest_add_func("/omap4-fdif/stopped-vm", test_stopped_vm);
    qtest_add_func("/omap4-fdif/replay-blocked", test_replay_blocked);
    qtest_add_func("/omap4-fdif/dma-not-ram", test_dma_not_ram);
    qtest_add_func("/omap4-fdif/dma-4gib", test_dma_4gib);
    qtest_add_func("/omap4-fdif/work-area-unmapped", test_work_area_unmapped);
    qtest_add_func("/omap4-fdif/evaluator", test_evaluator);
    qtest_add_func("/omap4-fdif/reset-test-regs", test_reset_test_regs);
    qtest_add_func("/omap4-fdif/fault/bad-params", test_fault_bad_params);
    qtest_add_func("/omap4-fdif/properties", test_properties);
    qtest_add_func("/omap4-fdif/dcond", test_dcond);
    qtest_add_func("/omap4-fdif/dcond-min-sizes", test_dcond_min_sizes);
    qtest_add_func("/omap4-fdif/dcond-windows", test_dcond_windows);
    qtest_add_func("/omap4-fdif/refused-run-keeps-fault", test_refused_run_keeps_fault);
    qtest_add_func("/omap4-fdif/work-area-rom", test_work_area_rom);
    qtest_add_func("/omap4-fdif/error-clears-results", test_error_clears_results);
    qtest_add_func("/omap4-fdif/lhit", test_lhit);
    qtest_add_func("/omap4-fdif/roi", test_roi);
    qtest_add_func("/omap4-fdif/work-area", test_work_area);
    qtest_add_func("/omap4-fdif/access-sizes", test_access_sizes);
    qtest_add_func("/omap4-fdif/hdshk-busy", test_hdshk_busy);
    qtest_add_func("/omap4-fdif/frame-time-zero", test_frame_time_zero);
    qtest_add_func("/omap4-fdif/threads", test_threads);
    qtest_add_func("/omap4-fdif/threads-bad", test_threads_bad);

    return g_test_run();
}
