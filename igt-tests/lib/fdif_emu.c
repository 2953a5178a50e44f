// SPDX-License-Identifier: MIT
/*
 * The emulated FDIF's test registers (QEMU's omap4-fdif with test-regs=on)
 * and the sysfs names that say where each instance's registers are. Shared
 * by the uAPI tests (fdif_test.c) and the benchmark (fdif_bench.c, which
 * uses libfdif-drm, not fdif_test.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fdif_emu.h"

/* QEMU's test registers (docs/fdif-device.md) */
#define EMU_BASE		FDIF_EMU_BASE
#define EMU_ID			0xf00
#define EMU_FRAME_TIME		0xf04
#define EMU_FAULT		0xf08
#define EMU_FAULT_JOBS		0xf0c
#define EMU_STANDBY_ACCESSES	0xf14
#define EMU_ID_VALUE		0x46444651u

/* The test registers of the emulated device at @base, mapped once each. */
static volatile uint32_t *fdif_emu_map(uint64_t base)
{
	static struct { uint64_t base; volatile uint32_t *regs; } maps[FDIF_MAX_INSTANCES];
	int i, fd;
	void *p;

	if (!base || base == UINT64_MAX || (base & 0xfff))
		return NULL;
	for (i = 0; i < FDIF_MAX_INSTANCES && maps[i].regs; i++)
		if (maps[i].base == base)
			return maps[i].regs;
	if (i == FDIF_MAX_INSTANCES)
		return NULL;
	fd = open("/dev/mem", O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	p = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)base);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	if (((volatile uint32_t *)p)[EMU_ID / 4] != EMU_ID_VALUE) {
		munmap(p, 0x1000);
		return NULL;
	}
	maps[i].base = base;
	maps[i].regs = p;
	return maps[i].regs;
}

/* The registers of the instance at EMU_BASE, or NULL if not emulated. */
static volatile uint32_t *fdif_emu_regs(void)
{
	return fdif_emu_map(EMU_BASE);
}

bool fdif_emu_available(void)
{
	volatile uint32_t *r = fdif_emu_regs();

	return r && r[EMU_ID / 4] == EMU_ID_VALUE;
}

int fdif_emu_inject(enum fdif_fault fault, uint32_t jobs)
{
	volatile uint32_t *r = fdif_emu_regs();

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	r[EMU_FAULT_JOBS / 4] = jobs;
	r[EMU_FAULT / 4] = fault;
	return r[EMU_FAULT / 4] == (uint32_t)fault ? 0 : -EPERM;
}

int fdif_emu_frame_time(uint32_t us)
{
	volatile uint32_t *r = fdif_emu_regs();

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	r[EMU_FRAME_TIME / 4] = us;
	return r[EMU_FRAME_TIME / 4] == us ? 0 : -EPERM;
}

int fdif_fd_minor(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENOTTY;
	return (int)minor(st.st_rdev);
}

int fdif_minor_devname(int minor, char *name, size_t len)
{
	char path[64], target[512];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device", minor);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || strlen(base) >= len)
		return -ENAMETOOLONG;
	strcpy(name, base);
	return 0;
}

int fdif_devname_minor(const char *devname)
{
	char path[300];
	struct dirent *de;
	int minor = -ENODEV, m, len;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/bus/platform/devices/%s/accel", devname);
	dir = opendir(path);
	if (!dir)
		return -ENODEV;
	while ((de = readdir(dir))) {
		len = 0;
		if (sscanf(de->d_name, "accel%d%n", &m, &len) == 1 && m >= 0 &&
		    !de->d_name[len]) {
			minor = m;
			break;
		}
	}
	closedir(dir);
	return minor;
}

int fdif_devname_base(const char *name, uint64_t *base)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(name, &end, 16);
	if (errno || end == name || *end != '.')
		return -EINVAL;
	*base = v;
	return 0;
}

volatile uint32_t *fdif_emu_regs_for(int minor)
{
	char name[64];
	uint64_t base;

	if (fdif_minor_devname(minor, name, sizeof(name)) ||
	    fdif_devname_base(name, &base))
		return NULL;
	return fdif_emu_map(base);
}

int fdif_emu_in_standby(uint64_t base)
{
	volatile uint32_t *r = fdif_emu_map(base);
	uint32_t ctrl;

	if (!r)
		return -ENODEV;
	/* FDIF_CTRL: MSTANDBY (bit 0), and the module's handshake (bit 5) */
	ctrl = r[0x064 / 4];
	return (ctrl & 1) && (ctrl & (1u << 5));
}

int fdif_emu_inject_on(int minor, enum fdif_fault fault, uint32_t jobs)
{
	volatile uint32_t *r = fdif_emu_regs_for(minor);

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	r[EMU_FAULT_JOBS / 4] = jobs;
	r[EMU_FAULT / 4] = fault;
	return r[EMU_FAULT / 4] == (uint32_t)fault ? 0 : -EPERM;
}

int fdif_emu_frame_time_on(int minor, uint32_t us)
{
	volatile uint32_t *r = fdif_emu_regs_for(minor);

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	r[EMU_FRAME_TIME / 4] = us;
	return r[EMU_FRAME_TIME / 4] == us ? 0 : -EPERM;
}

int fdif_emu_frame_time_get(int minor)
{
	volatile uint32_t *r = fdif_emu_regs_for(minor);

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	return r[EMU_FRAME_TIME / 4] > INT32_MAX ? -ERANGE : (int)r[EMU_FRAME_TIME / 4];
}

int fdif_emu_fault_get(int minor)
{
	volatile uint32_t *r = fdif_emu_regs_for(minor);

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	return (int)r[EMU_FAULT / 4];
}

long long fdif_emu_standby_accesses(int minor)
{
	volatile uint32_t *r = fdif_emu_regs_for(minor);

	if (!r || r[EMU_ID / 4] != EMU_ID_VALUE)
		return -ENODEV;
	return r[EMU_STANDBY_ACCESSES / 4];
}
