// Detection time of the face-detector plugin per 1920x1080 luma frame (scripts/bench-face-detection).
// The frame: scikit-image's astronaut.png, scaled to 768x768, on mid-grey (one face about
// 140 pixels across); `nothing` leaves the face out. Prints the median and the fastest of 20 reads.
#include "OCFaceDetector.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s CASCADE_DIR ASTRONAUT_PNG [nothing]\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    OCFaceDetector *detector = oc_face_plugin_create(
        (dir + "/haarcascades/haarcascade_frontalface_alt2.xml").c_str(), (dir + "/haarcascades/haarcascade_profileface.xml").c_str());
    if (detector == nullptr) return 1;
    cv::Mat frame(1080, 1920, CV_8UC1, cv::Scalar(120));
    if (argc < 4 || std::strcmp(argv[3], "nothing") != 0) {
        cv::Mat face = cv::imread(argv[2], cv::IMREAD_GRAYSCALE);
        cv::resize(face, face, cv::Size(768, 768), 0, 0, cv::INTER_AREA);
        face.copyTo(frame(cv::Rect(576, 156, face.cols, face.rows)));
    }
    OCFace faces[16];
    std::vector<double> ms;
    int found = 0;
    for (int i = 0; i < 20; i++) {
        auto start = std::chrono::steady_clock::now();
        found = oc_face_plugin_detect(detector, frame.data, frame.cols, frame.rows, static_cast<int>(frame.step), OC_FACE_LAYOUT_LUMA8, 640, faces, 16);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("faces found %d, median %.0f ms, fastest %.0f ms (20 reads)\n", found, ms[ms.size() / 2], ms[0]);
    oc_face_plugin_destroy(detector);
    return 0;
}
