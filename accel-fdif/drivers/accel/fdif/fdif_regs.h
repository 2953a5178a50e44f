/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register map of the TI OMAP4 Face Detection module (OMAP4 TRM chapter 9).
 *
 * Copyright (c) 2026 The fdif developers
 */
#ifndef __FDIF_REGS_H__
#define __FDIF_REGS_H__

#include <linux/bits.h>

#define FDIF_REVISION			0x000
#define FDIF_HWINFO			0x004
#define FDIF_SYSCONFIG			0x010
#define   FDIF_SYSCONFIG_SOFTRESET	BIT(0)
/* owned by the parent interconnect target module (ti-sysc) */
#define   FDIF_SYSCONFIG_SIDLEMODE	GENMASK(3, 2)
#define   FDIF_SYSCONFIG_MIDLEMODE	GENMASK(5, 4)

/* Interrupt line j; line 2 is the one wired to the MPU. */
#define FDIF_IRQ_MPU			2
#define FDIF_IRQSTATUS_RAW(j)		(0x024 + (j) * 0x10)
#define FDIF_IRQSTATUS(j)		(0x028 + (j) * 0x10)
#define FDIF_IRQENABLE_SET(j)		(0x02c + (j) * 0x10)
#define FDIF_IRQENABLE_CLR(j)		(0x030 + (j) * 0x10)
#define   FDIF_IRQ_ERR			BIT(0)
#define   FDIF_IRQ_FINISH		BIT(8)

#define FDIF_PICADDR			0x060
#define FDIF_CTRL			0x064
#define   FDIF_CTRL_MSTANDBY		BIT(0)
#define   FDIF_CTRL_MAX_TAGS		GENMASK(4, 1)
#define   FDIF_CTRL_MSTANDBY_HDSHK	BIT(5)
#define FDIF_WKADDR			0x068

#define FD_CTRL				0x080
#define   FD_CTRL_SRST			BIT(0)
#define   FD_CTRL_RUN			BIT(1)
#define   FD_CTRL_FINISH		BIT(2)
#define FD_DNUM				0x084
#define   FD_DNUM_MASK			GENMASK(5, 0)
#define FD_DCOND			0x088
#define   FD_DCOND_MIN_SIZE		GENMASK(1, 0)
#define   FD_DCOND_DIR			GENMASK(3, 2)
#define FD_STARTX			0x08c
#define FD_STARTY			0x090
#define FD_SIZEX			0x094
#define FD_SIZEY			0x098
#define FD_LHIT				0x09c

#define FD_CENTERX(i)			(0x160 + (i) * 0x10)
#define   FD_CENTERX_MASK		GENMASK(8, 0)
#define FD_CENTERY(i)			(0x164 + (i) * 0x10)
#define   FD_CENTERY_MASK		GENMASK(7, 0)
#define FD_CONFSIZE(i)			(0x168 + (i) * 0x10)
#define   FD_CONFSIZE_SIZE		GENMASK(7, 0)
#define   FD_CONFSIZE_CONF		GENMASK(11, 8)
#define FD_ANGLE(i)			(0x16c + (i) * 0x10)
#define   FD_ANGLE_MASK			GENMASK(8, 0)

#define FDIF_MAX_CONFIDENCE		9	/* 0 = best .. 9 = worst */
#define FDIF_MAX_TAGS			0xa

#endif /* __FDIF_REGS_H__ */
