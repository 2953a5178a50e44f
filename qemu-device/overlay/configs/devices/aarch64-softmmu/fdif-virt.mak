# qemu-system-aarch64 for the fdif project: the virt board only, with the
# emulated OMAP4 FDIF and what the guest harness needs (the PL011 serial
# console comes with the board; virtio-9p shares a host folder).
CONFIG_ARM_VIRT=y
CONFIG_OMAP4_FDIF=y
CONFIG_VIRTIO_9P=y
CONFIG_VIRTIO_MMIO=y

# target/arm always links the M-profile and semihosting code
CONFIG_ARM_V7M=y
CONFIG_SEMIHOSTING=y
CONFIG_ARM_COMPATIBLE_SEMIHOSTING=y

# for the qtest whose work area stops being RAM while a job runs: a PCI
# device with a RAM BAR the test switches off
CONFIG_IVSHMEM_DEVICE=y
