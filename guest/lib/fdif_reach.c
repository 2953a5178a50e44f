// SPDX-License-Identifier: MIT
#include "fdif_reach.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/*
 * From /proc/iomem's top-level "start-end : System RAM" lines (root sees
 * the addresses; the guest's tests run as root): any RAM that ends above
 * the last 32-bit address.
 */
int fdif_ram_beyond_reach(void)
{
	char line[256];
	int beyond = 0, seen = 0;
	FILE *f = fopen("/proc/iomem", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end;

		if (line[0] == ' ' || !strstr(line, ": System RAM"))
			continue;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2)
			continue;
		seen = 1;
		if (end > UINT32_MAX)
			beyond = 1;
	}
	fclose(f);
	return seen ? beyond : -ENODATA;
}
