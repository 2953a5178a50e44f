// SPDX-License-Identifier: MIT
/* meson's probe: clang links a libFuzzer program (its runtime is installed) */
int LLVMFuzzerTestOneInput(const char *d, unsigned long n);
int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }
