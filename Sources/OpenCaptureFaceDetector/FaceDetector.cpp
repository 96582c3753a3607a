// The face-detector plugin: OpenCV's cascade classifiers behind a C header, built as its
// own shared library (the OpenCaptureFaceDetector product) and loaded by CFaceRuntime
// only when a metadata output asks for faces. See ARCHITECTURE.md "Metadata" for the
// choices: which cascades, roll from rotated copies, yaw from the profile cascade.
#include "OCFaceDetector.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

struct OCFaceDetector {
    cv::CascadeClassifier frontal;
    cv::CascadeClassifier profile;
};

namespace {

// Rolls searched, degrees clockwise: the frontal cascade tolerates about ±15° itself, so
// copies turned by 30° each way cover a face tilted up to about 45°.
const int kRolls[] = {0, 30, -30};

struct Candidate {
    cv::Point2d center;
    double size;
    int roll;
    int yaw;
    bool frontal;
    double weight;
    size_t order;
};

cv::Mat grayImage(const uint8_t *pixels, int width, int height, int stride, int layout) {
    cv::Mat gray;
    if (layout == OC_FACE_LAYOUT_BGRX) {
        cv::Mat bgra(height, width, CV_8UC4, const_cast<uint8_t *>(pixels), stride);
        cv::cvtColor(bgra, gray, cv::COLOR_BGRA2GRAY);
    } else if (layout == OC_FACE_LAYOUT_LUMA16) {
        // The sample is in the high bits of little-endian words: the high byte is the luma.
        gray.create(height, width, CV_8UC1);
        for (int y = 0; y < height; y++) {
            const uint8_t *row = pixels + static_cast<size_t>(y) * stride;
            uint8_t *out = gray.ptr<uint8_t>(y);
            for (int x = 0; x < width; x++) out[x] = row[2 * x + 1];
        }
    } else {
        gray = cv::Mat(height, width, CV_8UC1, const_cast<uint8_t *>(pixels), stride).clone();
    }
    return gray;
}

// Runs `cascade`: the faces' rectangles in `image` pixels and, as their weight, how many
// neighbouring windows agreed on each (the reject-level weights cost several times more).
void detect(cv::CascadeClassifier &cascade, const cv::Mat &image, int minNeighbors, std::vector<cv::Rect> &rects, std::vector<double> &weights) {
    std::vector<int> neighbours;
    rects.clear();
    cascade.detectMultiScale(image, rects, neighbours, 1.2, minNeighbors, 0, cv::Size(20, 20), cv::Size());
    weights.assign(neighbours.begin(), neighbours.end());
    if (weights.size() != rects.size()) weights.assign(rects.size(), 0.0);
}

}  // namespace

extern "C" OCFaceDetector *oc_face_plugin_create(const char *frontalCascade, const char *profileCascade) {
    if (frontalCascade == nullptr || profileCascade == nullptr) return nullptr;
    auto *detector = new OCFaceDetector();
    try {
        if (detector->frontal.load(frontalCascade) && detector->profile.load(profileCascade)) return detector;
    } catch (...) {
    }
    delete detector;
    return nullptr;
}

extern "C" int oc_face_plugin_detect(
    OCFaceDetector *detector, const uint8_t *pixels, int width, int height, int stride, int layout, int workingWidth, OCFace *faces,
    int capacity) {
    if (detector == nullptr || pixels == nullptr || width <= 0 || height <= 0) return -1;
    try {
        cv::Mat gray = grayImage(pixels, width, height, stride, layout);
        double scale = 1;
        if (workingWidth > 0 && width > workingWidth) {
            scale = static_cast<double>(workingWidth) / width;
            cv::Mat small;
            cv::resize(gray, small, cv::Size(workingWidth, std::max(1, static_cast<int>(std::lround(height * scale)))), 0, 0, cv::INTER_AREA);
            gray = small;
        }
        cv::equalizeHist(gray, gray);
        std::vector<Candidate> candidates;
        std::vector<cv::Rect> rects;
        std::vector<double> weights;
        const cv::Point2f middle(gray.cols / 2.0f, gray.rows / 2.0f);
        for (int roll : kRolls) {
            cv::Mat image = gray;  // shared, not copied: the rotated copies get buffers of their own
            cv::Mat back = (cv::Mat_<double>(2, 3) << 1, 0, 0, 0, 1, 0);
            if (roll != 0) {
                image = cv::Mat();
                // OpenCV's positive angle turns the picture anticlockwise: that stands a
                // face rolled clockwise by `roll` upright.
                cv::Mat turn = cv::getRotationMatrix2D(middle, roll, 1);
                cv::warpAffine(gray, image, turn, gray.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
                cv::invertAffineTransform(turn, back);
            }
            detect(detector->frontal, image, 3, rects, weights);
            for (size_t i = 0; i < rects.size(); i++) {
                const cv::Rect &r = rects[i];
                double cx = r.x + r.width / 2.0, cy = r.y + r.height / 2.0;
                cv::Point2d c(back.at<double>(0, 0) * cx + back.at<double>(0, 1) * cy + back.at<double>(0, 2),
                              back.at<double>(1, 0) * cx + back.at<double>(1, 1) * cy + back.at<double>(1, 2));
                candidates.push_back({c, static_cast<double>(r.width), (roll + 360) % 360, 0, true, weights[i], candidates.size()});
            }
        }
        // The profile cascade finds faces turned one way; the mirrored picture gives the other.
        for (int mirrored = 0; mirrored < 2; mirrored++) {
            cv::Mat image;
            if (mirrored) cv::flip(gray, image, 1); else image = gray;
            detect(detector->profile, image, 4, rects, weights);
            for (size_t i = 0; i < rects.size(); i++) {
                const cv::Rect &r = rects[i];
                double cx = r.x + r.width / 2.0;
                if (mirrored) cx = gray.cols - cx;
                candidates.push_back({cv::Point2d(cx, r.y + r.height / 2.0), static_cast<double>(r.width), 0, mirrored ? 90 : 270, false, weights[i], candidates.size()});
            }
        }
        // Strongest first, frontal before profile; a candidate over a face already kept is
        // the same face (a frontal one also seen in profile is half turned: 45 or 315).
        std::sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
            if (a.frontal != b.frontal) return a.frontal;
            if (a.weight != b.weight) return a.weight > b.weight;
            return a.order < b.order;
        });
        std::vector<Candidate> kept;
        for (const Candidate &c : candidates) {
            bool same = false;
            for (Candidate &k : kept) {
                double reach = 0.5 * std::max(k.size, c.size);
                if (std::abs(k.center.x - c.center.x) < reach && std::abs(k.center.y - c.center.y) < reach) {
                    same = true;
                    if (k.frontal && !c.frontal && k.yaw == 0) k.yaw = c.yaw == 90 ? 45 : 315;
                    break;
                }
            }
            if (!same) kept.push_back(c);
        }
        int count = static_cast<int>(kept.size());
        for (int i = 0; i < count && i < capacity; i++) {
            faces[i].centerX = kept[i].center.x / scale;
            faces[i].centerY = kept[i].center.y / scale;
            faces[i].size = kept[i].size / scale;
            faces[i].roll = kept[i].roll;
            faces[i].yaw = kept[i].yaw;
        }
        return count;
    } catch (...) {
        return -1;
    }
}

extern "C" void oc_face_plugin_destroy(OCFaceDetector *detector) { delete detector; }
