#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Add the FDIF node to its target module in omap4-l4.dtsi.

  add-omap4-fdif-node.py PATH/arch/arm/boot/dts/ti/omap/omap4-l4.dtsi

The series' "ARM: dts: omap4: add the Face Detection module"
(export-patches.sh) and the checks stage's OMAP4 DTB check
(accel-fdif/check.sh) both make the change here, so they cannot differ.
"""
import sys

p = sys.argv[1]
s = open(p).read()
old = ("\t\t\tranges = <0x0 0xa000 0x1000>;\n\n"
       "\t\t\t/* No child device binding or driver in mainline */\n")
new = ("\t\t\tranges = <0x0 0xa000 0x1000>;\n\n"
       "\t\t\tfdif: fdif@0 {\n"
       "\t\t\t\tcompatible = \"ti,omap4-fdif\";\n"
       "\t\t\t\treg = <0x0 0x1000>;\n"
       "\t\t\t\tinterrupts = <GIC_SPI 69 IRQ_TYPE_LEVEL_HIGH>;\n"
       "\t\t\t};\n")
if s.count(old) != 1:
    sys.exit("%s: the FDIF target-module was not found" % p)
open(p, "w").write(s.replace(old, new))
