/* SPDX-License-Identifier: MIT */
/*
 * The emulated FDIF's test registers, and where each instance's are (see
 * fdif_emu.c). Every function returns 0 (or a value) or a negative errno,
 * except where it says otherwise.
 */
#ifndef FDIF_EMU_H
#define FDIF_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Emulated FDIF fault modes (QEMU's EMU_FAULT register). */
enum fdif_fault {
	FDIF_FAULT_NONE = 0,
	FDIF_FAULT_HANG = 1,
	FDIF_FAULT_ERR = 2,
	FDIF_FAULT_SPURIOUS = 3,
	FDIF_FAULT_DMA = 4,
	FDIF_FAULT_LOST_IRQ = 5,
	FDIF_FAULT_STUCK_RESET = 6,	/* SOFTRESET never completes */
	FDIF_FAULT_IRQ_IN_STANDBY = 7,	/* the line pulses as standby begins */
};

/* Fault injection through the emulated device (QEMU test-regs=on). */
bool fdif_emu_available(void);
int fdif_emu_inject(enum fdif_fault fault, uint32_t jobs);
/* The device's time for a full 320x240 frame (scaled by the ROI's area). */
int fdif_emu_frame_time(uint32_t us);
#define FDIF_EMU_FRAME_TIME_DEFAULT	15000

/* The instance at this address is the one the functions above drive. */
#define FDIF_EMU_BASE		0x0c000000UL
/* The most instances the tests and fdif_emu_regs_for() handle. */
#define FDIF_MAX_INSTANCES	8

/* The accel minor of an open device file. */
int fdif_fd_minor(int fd);
/* The platform device name of accel minor @minor, e.g. "c000000.fdif". */
int fdif_minor_devname(int minor, char *name, size_t len);
/* The accel minor of bound platform device @devname, or -ENODEV (unbound). */
int fdif_devname_minor(const char *devname);
/* The register address in a platform device name ("c001000.fdif": 0xc001000). */
int fdif_devname_base(const char *name, uint64_t *base);
/* The test registers of instance @minor's emulated device, or NULL. */
volatile uint32_t *fdif_emu_regs_for(int minor);
/*
 * Whether the emulated module at register address @base is in master
 * standby with its handshake given (FDIF_CTRL.MSTANDBY and HDSHK: how the
 * driver leaves it when it suspends it): 1 or 0; -ENODEV if not emulated.
 * Bound or not.
 */
int fdif_emu_in_standby(uint64_t base);
int fdif_emu_inject_on(int minor, enum fdif_fault fault, uint32_t jobs);
int fdif_emu_frame_time_on(int minor, uint32_t us);
/* Instance @minor's frame time in us, or a negative errno. */
int fdif_emu_frame_time_get(int minor);
/* Instance @minor's armed fault (0 once used up), or a negative errno. */
int fdif_emu_fault_get(int minor);
/*
 * How often the driver touched instance @minor's module in standby, where
 * a real OMAP4 may have cut its clocks (since QEMU's reset), or -errno.
 */
long long fdif_emu_standby_accesses(int minor);

#endif
