import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// AVAssetImageGenerator on files whose frames say their own number: frame N is grey at
/// luma 16 + 8N, ten frames a second, so an image tells which frame it was made from.
@Suite("AVAssetImageGenerator")
struct AssetImageGeneratorTests {
    /// Twenty 64x48 frames at 10 fps (two seconds), H.264 in MP4.
    static func numberedMovie() throws -> URL {
        try AssetReaderFixture.ffmpeg(
            "mp4", input: ["-f", "lavfi", "-i", "color=c=black:size=64x48:rate=10"],
            ["-frames:v", "20", "-vf", "geq=lum='16+8*N':cb=128:cr=128", "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p"])
    }

    /// The frame number an image shows (its centre's grey level).
    static func frameNumber(_ image: CGImage) -> Int {
        let bytes = [UInt8](image.dataProvider!.data! as Data)
        let centre = (image.height / 2) * image.bytesPerRow + (image.width / 2) * 4
        return Int((Double(bytes[centre + 1]) * 219 / 255 / 8).rounded())
    }

    static func time(_ seconds: Double) -> CMTime { CMTime(seconds: seconds, preferredTimescale: 600) }

    @Test("the frame on screen at a time; actualTime is its own with the default tolerance, the time asked with none")
    func frameAtTime() async throws {
        let url = try Self.numberedMovie()
        defer { try? FileManager.default.removeItem(at: url) }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        #expect(generator.requestedTimeToleranceBefore == .positiveInfinity && generator.requestedTimeToleranceAfter == .positiveInfinity)
        #expect(!generator.appliesPreferredTrackTransform && generator.maximumSize == .zero && generator.apertureMode == .cleanAperture)
        let loose = try await generator.image(at: Self.time(0.55))
        #expect(Self.frameNumber(loose.image) == 5 && loose.actualTime == Self.time(0.5))
        #expect(loose.image.width == 64 && loose.image.height == 48)
        generator.requestedTimeToleranceBefore = .zero
        generator.requestedTimeToleranceAfter = .zero
        let exact = try await generator.image(at: Self.time(0.55))
        #expect(Self.frameNumber(exact.image) == 5 && exact.actualTime == Self.time(0.55))
        let first = try await generator.image(at: .zero)
        #expect(Self.frameNumber(first.image) == 0 && first.actualTime == .zero)
    }

    @Test("past the end: the last frame within the tolerance, else AVError.noImageAtTime; an audio-only asset has none")
    func pastTheEnd() async throws {
        let url = try Self.numberedMovie()
        defer { try? FileManager.default.removeItem(at: url) }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        let last = try await generator.image(at: Self.time(5))
        #expect(Self.frameNumber(last.image) == 19 && last.actualTime == Self.time(1.9))
        generator.requestedTimeToleranceBefore = Self.time(1)
        await #expect(throws: AVError.self) { try await generator.image(at: Self.time(5)) }
        do {
            _ = try await generator.image(at: Self.time(5))
        } catch let error as AVError {
            #expect(error.code == .noImageAtTime)
        }
        let audio = try AssetReaderFixture.ffmpeg("m4a", input: ["-f", "lavfi", "-i", "sine=frequency=440:duration=1"], ["-c:a", "aac"])
        defer { try? FileManager.default.removeItem(at: audio) }
        await #expect(throws: AVError.self) { try await AVAssetImageGenerator(asset: AVURLAsset(url: audio)).image(at: .zero) }
    }

    @Test("maximumSize shrinks keeping the shape; appliesPreferredTrackTransform turns a rotated movie's picture")
    func sizeAndTransform() async throws {
        let (url, _) = try await AssetWriterFixture.writeFrames(
            [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 352, AVVideoHeightKey: 288], transform: CGAffineTransform(rotationAngle: .pi / 2))
        defer { try? FileManager.default.removeItem(at: url) }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        let stored = try await generator.image(at: .zero).image
        #expect(stored.width == 352 && stored.height == 288)
        generator.appliesPreferredTrackTransform = true
        let turned = try await generator.image(at: .zero).image
        #expect(turned.width == 288 && turned.height == 352)
        // The frame's white square is at the stored picture's top left; turned a quarter
        // clockwise it is at the top right.
        let bytes = [UInt8](turned.dataProvider!.data! as Data)
        #expect(bytes[10 * turned.bytesPerRow + (turned.width - 10) * 4 + 1] > 240 && bytes[10 * turned.bytesPerRow + 10 * 4 + 1] < 160)
        generator.maximumSize = CGSize(width: 100, height: 100)
        let small = try await generator.image(at: .zero).image
        #expect(small.width == 82 && small.height == 100)
        generator.maximumSize = CGSize(width: 0, height: 176)
        let half = try await generator.image(at: .zero).image
        #expect(half.width == 144 && half.height == 176)
    }

    @Test("times in NSValues are made in order on the generator's queue; cancelled requests say so")
    func batchesAndCancelling() async throws {
        let url = try Self.numberedMovie()
        defer { try? FileManager.default.removeItem(at: url) }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        let results = Mutex<[(CMTime, Int?, AVAssetImageGenerator.Result)]>([])
        let done = DispatchSemaphore(value: 0)
        let times = [0.0, 1.0, 0.3].map { NSValue(time: Self.time($0)) }
        generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, _, result, _ in
            results.withLock { $0.append((requested, image.map(Self.frameNumber), result)) }
            done.signal()
        }
        for _ in times { #expect(done.wait(timeout: .now() + 30) == .success) }
        #expect(results.withLock { $0.map(\.1) } == [0, 10, 3])
        #expect(results.withLock { $0.map(\.0) } == [Self.time(0), Self.time(1), Self.time(0.3)])
        #expect(results.withLock { $0.allSatisfy { $0.2 == .succeeded } })
        // Held on its queue, then cancelled: every request ends cancelled, none is made.
        results.withLock { $0.removeAll() }
        generator.queue.suspend()
        generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, _, result, _ in
            results.withLock { $0.append((requested, image.map(Self.frameNumber), result)) }
            done.signal()
        }
        generator.cancelAllCGImageGeneration()
        generator.queue.resume()
        for _ in times { #expect(done.wait(timeout: .now() + 30) == .success) }
        #expect(results.withLock { $0.allSatisfy { $0.1 == nil && $0.2 == .cancelled } })
    }

    @Test("images(for:) yields each time's image or its error, in order")
    func imagesSequence() async throws {
        let url = try Self.numberedMovie()
        defer { try? FileManager.default.removeItem(at: url) }
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: url))
        generator.requestedTimeToleranceBefore = .zero
        var numbers: [Int] = []
        var failed: [CMTime] = []
        for await element in generator.images(for: [Self.time(0.2), Self.time(9), Self.time(1.5)]) {
            switch element {
            case .success(_, let image, _): numbers.append(Self.frameNumber(image))
            case .failure(let time, _): failed.append(time)
            }
            if case .failure = element { #expect(throws: AVError.self) { try element.image } }
        }
        #expect(numbers == [2, 15] && failed == [Self.time(9)])
    }

    @Test("NSValue boxes times, ranges and mappings and gives them back; a value of another kind gives the invalid one")
    func boxedTimes() {
        let time = CMTime(value: 7, timescale: 30)
        let range = CMTimeRange(start: time, duration: CMTime(value: 1, timescale: 1))
        #expect(NSValue(time: time).timeValue == time)
        #expect(NSValue(timeRange: range).timeRangeValue == range)
        #expect(NSValue(time: time) == NSValue(time: time))
        #expect(NSValue(time: time).timeRangeValue == .invalid && !NSValue(timeRange: range).timeValue.isValid)
        let mapping = CMTimeMapping(source: range, target: range)
        #expect(NSValue(timeMapping: mapping).timeMappingValue == mapping)
    }
}
