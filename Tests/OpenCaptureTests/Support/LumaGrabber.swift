import Foundation
import Testing

@testable import OpenCapture

/// A video data output's delegate that keeps a copy of each frame's luma plane (420v or
/// 420f buffers) with its metadata, for measurements on pixels: scale between two views,
/// frame-to-frame motion, noise.
final class LumaGrabber: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    struct Shot: Sendable {
        var luma: [UInt8]
        var width: Int
        var height: Int
        var metadata: FrameMetadata

        /// The luma at (x, y), bilinear, clamped to the edges.
        func sample(_ x: Double, _ y: Double) -> Double {
            let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
            let x0 = Int(cx), y0 = Int(cy)
            let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
            let fx = cx - Double(x0), fy = cy - Double(y0)
            let top = Double(luma[y0 * width + x0]) * (1 - fx) + Double(luma[y0 * width + x1]) * fx
            let bottom = Double(luma[y1 * width + x0]) * (1 - fx) + Double(luma[y1 * width + x1]) * fx
            return top * (1 - fy) + bottom * fy
        }
    }

    let queue = DispatchQueue(label: "test.luma")
    private let shots = Mutex<[Shot]>([])

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let image = sampleBuffer.imageBuffer, let metadata = sampleBuffer.metadata else { return }
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        let width = CVPixelBufferGetWidthOfPlane(image, 0), height = CVPixelBufferGetHeightOfPlane(image, 0)
        let stride = CVPixelBufferGetBytesPerRowOfPlane(image, 0)
        let base = CVPixelBufferGetBaseAddressOfPlane(image, 0)!.assumingMemoryBound(to: UInt8.self)
        var luma = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { luma[y * width + x] = base[y * stride + x] }
        }
        shots.withLock { $0.append(Shot(luma: luma, width: width, height: height, metadata: metadata)) }
    }

    var all: [Shot] { shots.withLock { $0 } }
    func reset() { shots.withLock { $0.removeAll() } }

    /// Waits until `count` frames satisfying `condition` arrived and returns them.
    func wait(
        for count: Int, within seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation,
        where condition: (Shot) -> Bool = { _ in true }
    ) throws -> [Shot] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let found = all.filter(condition)
            if found.count >= count { return Array(found.prefix(count)) }
            Thread.sleep(forTimeInterval: 0.005)
        }
        Issue.record("waited \(seconds) s for \(count) frames", sourceLocation: sourceLocation)
        throw CancellationError()
    }
}

/// Measurements on luma frames.
enum LumaMeasure {
    /// The factor k by which `zoomed` magnifies `wide` about the centre (zoomed(p) ≈
    /// wide(c + (p − c)/k)): the k in `range` with the smallest mean absolute difference
    /// over the central part of the frame.
    static func magnification(of zoomed: LumaGrabber.Shot, relativeTo wide: LumaGrabber.Shot, range: ClosedRange<Double>) -> Double {
        let cx = Double(zoomed.width - 1) / 2, cy = Double(zoomed.height - 1) / 2
        var best = (k: range.lowerBound, error: Double.infinity)
        var k = range.lowerBound
        while k <= range.upperBound {
            // Compare where both views have pixels: the centre, shrunk when k < 1.
            let reach = 0.4 * min(1, k)
            var error = 0.0, count = 0
            var y = cy - reach * Double(zoomed.height)
            while y <= cy + reach * Double(zoomed.height) {
                var x = cx - reach * Double(zoomed.width)
                while x <= cx + reach * Double(zoomed.width) {
                    let a = zoomed.sample(x, y)
                    let b = wide.sample(cx + (x - cx) / k, cy + (y - cy) / k)
                    error += abs(a - b)
                    count += 1
                    x += 3
                }
                y += 3
            }
            if error / Double(count) < best.error { best = (k, error / Double(count)) }
            k += 0.01
        }
        return best.k
    }

    /// The temporal noise of a region: the standard deviation of the difference of two
    /// frames of a still scene over √2, in luma codes.
    static func temporalNoise(_ a: LumaGrabber.Shot, _ b: LumaGrabber.Shot) -> Double {
        var sum = 0.0, sumSquares = 0.0, count = 0.0
        for y in (a.height / 4)..<(3 * a.height / 4) {
            for x in (a.width / 4)..<(3 * a.width / 4) {
                let d = Double(a.luma[y * a.width + x]) - Double(b.luma[y * a.width + x])
                sum += d
                sumSquares += d * d
                count += 1
            }
        }
        let mean = sum / count
        return (sumSquares / count - mean * mean).squareRoot() / 2.0.squareRoot()
    }

    /// The mean luma of the central half.
    static func meanLuma(_ a: LumaGrabber.Shot) -> Double {
        var sum = 0.0, count = 0.0
        for y in (a.height / 4)..<(3 * a.height / 4) {
            for x in (a.width / 4)..<(3 * a.width / 4) {
                sum += Double(a.luma[y * a.width + x])
                count += 1
            }
        }
        return sum / count
    }
}
