// SPDX-License-Identifier: MIT
/* IGT-style test: DRM_IOCTL_FDIF_GET_PARAM. */
#include <errno.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "fdif_test.h"

FDIF_DEV_FIXTURE(dev);

TEST_F(dev, basic)
{
	static const struct {
		uint32_t param;
		uint64_t value;
	} want[] = {
		{ DRM_FDIF_PARAM_MAX_WIDTH, 320 },
		{ DRM_FDIF_PARAM_MAX_HEIGHT, 240 },
		{ DRM_FDIF_PARAM_FORMATS, 1u << DRM_FDIF_FORMAT_GREY8 },
		{ DRM_FDIF_PARAM_OBJECT_CLASSES, 1u << DRM_FDIF_CLASS_FACE },
		{ DRM_FDIF_PARAM_MAX_OBJECTS, 35 },
		{ DRM_FDIF_PARAM_MIN_SIZES, 0x28201914 },
		{ DRM_FDIF_PARAM_DIRECTIONS, 7 },
		{ DRM_FDIF_PARAM_WORK_SIZE, 52 * 1024 },
		{ DRM_FDIF_PARAM_ALIGN, 32 },
		{ DRM_FDIF_PARAM_RESULT_SIZE, sizeof(struct drm_fdif_result) },
		{ DRM_FDIF_PARAM_ROI_MAX_X, 160 },
		{ DRM_FDIF_PARAM_ROI_MAX_Y, 120 },
		{ DRM_FDIF_PARAM_ROI_MIN_SIZE, 20 },
		{ DRM_FDIF_PARAM_MAX_LHIT, 9 },
	};
	uint64_t v;
	unsigned int i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ASSERT_EQ(0, fdif_get_param(self->fd, want[i].param, &v));
		EXPECT_EQ(want[i].value, v) TH_LOG("param %u", want[i].param);
	}
	ASSERT_EQ(0, fdif_get_param(self->fd, DRM_FDIF_PARAM_REVISION, &v));
	EXPECT_NE(0, v);
}

TEST_F(dev, invalid_param)
{
	uint64_t v;

	EXPECT_EQ(-EINVAL, fdif_get_param(self->fd, DRM_FDIF_PARAM_MAX_LHIT + 1, &v));
	EXPECT_EQ(-EINVAL, fdif_get_param(self->fd, 0x80000000u, &v));
	EXPECT_EQ(-EINVAL, fdif_get_param(self->fd, ~0u, &v));
}

TEST_F(dev, bad_pad)
{
	struct drm_fdif_get_param p = { .param = DRM_FDIF_PARAM_MAX_WIDTH, .pad = 1 };

	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_GET_PARAM, &p));
}

TEST_F(dev, bad_pointer)
{
	EXPECT_EQ(-EFAULT, fdif_ioctl(self->fd, DRM_IOCTL_FDIF_GET_PARAM, (void *)8));
}

TEST_F(dev, unknown_ioctl)
{
	struct drm_fdif_get_param p = { 0 };

	/* the first ioctl number past the table */
	EXPECT_EQ(-EINVAL, fdif_ioctl(self->fd,
				      DRM_IOWR(DRM_COMMAND_BASE + 0x05, struct drm_fdif_get_param),
				      &p));
}

TEST_HARNESS_MAIN
