/* SPDX-License-Identifier: MIT */
/*
 * Whether the guest has RAM the FDIF cannot address: its DMA reaches 32
 * bits (docs/fdif-device.md), and the stress stage boots with RAM up to
 * 5 GiB. There the driver takes no other exporter's dma-buf
 * (docs/driver.md, "Imports the device cannot address").
 */
#ifndef FDIF_REACH_H
#define FDIF_REACH_H

#include <stdbool.h>

/* 1: RAM above 4 GiB, 0: none, -errno: /proc/iomem unreadable */
int fdif_ram_beyond_reach(void);

#endif
