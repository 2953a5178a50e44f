// SPDX-License-Identifier: MIT
/*
 * opencv-detect - the reference side of the detector benchmark: OpenCV's
 * CascadeClassifier::detectMultiScale on one picture, single-threaded,
 * printing rectangles the way `facedet --rects` does.
 *
 *   opencv-detect MODEL PICTURE SCALE_STEP MIN_SIZE MIN_NEIGHBORS REPEAT
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/objdetect.hpp>

int main(int argc, char **argv)
{
	if (argc != 7) {
		std::fprintf(stderr, "usage: opencv-detect MODEL PICTURE STEP MIN_SIZE MIN_NEIGHBORS REPEAT\n");
		return 2;
	}
	cv::setNumThreads(1);
	cv::CascadeClassifier cascade;
	if (!cascade.load(argv[1])) {
		std::fprintf(stderr, "opencv-detect: cannot load %s\n", argv[1]);
		return 1;
	}
	cv::Mat img = cv::imread(argv[2], cv::IMREAD_GRAYSCALE);
	if (img.empty()) {
		std::fprintf(stderr, "opencv-detect: cannot read %s\n", argv[2]);
		return 1;
	}
	double step = std::atof(argv[3]);
	int min_size = std::atoi(argv[4]), min_neighbors = std::atoi(argv[5]);
	int repeat = std::atoi(argv[6]);
	std::vector<cv::Rect> faces;

	timespec c0, c1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	auto t0 = std::chrono::steady_clock::now();
	for (int i = 0; i < repeat; i++)
		cascade.detectMultiScale(img, faces, step, min_neighbors, 0,
					 cv::Size(min_size, min_size));
	auto t1 = std::chrono::steady_clock::now();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);

	for (const cv::Rect &r : faces)
		std::printf("rect %d %d %d %d\n", r.x, r.y, r.width, r.height);
	/* wall time, then CPU time (less hit by other load on the machine) */
	std::printf("time %.3f ms/frame cpu %.3f ms/frame\n",
		    std::chrono::duration<double, std::milli>(t1 - t0).count() / repeat,
		    ((c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6) / repeat);
	return 0;
}
