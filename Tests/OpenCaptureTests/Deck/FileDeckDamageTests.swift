import Foundation
import Testing

@testable import OpenCapture

/// A deck with files it cannot read or decode whole, with a consumer slower than its speed,
/// and a speed change mid-stream.
@Suite("File deck damage and slow consumers", .serialized)
struct FileDeckDamageTests {
    /// A file its user may not read: the creating call fails with `.fileFailedToParse`
    /// naming the file (as root, the check runs as nobody, in a child process).
    @Test func unreadableFileIsAClearError() async {
        await #expect(processExitsWith: .success) {
            let url = try DeckFixture.clip("locked.mp4", frames: 2, ["-c:v", "libx264", "-preset", "ultrafast"])
            guard chmod(url.path, 0o600) == 0, chmod(url.deletingLastPathComponent().path, 0o755) == 0 else { exit(3) }
            if geteuid() == 0 { guard setgid(65534) == 0, setuid(65534) == 0 else { exit(4) } } else { guard chmod(url.path, 0) == 0 else { exit(5) } }
            guard access(url.path, R_OK) != 0 else { exit(6) }
            do {
                _ = try AVCaptureDevice.fileDeck(url: url)
                exit(7)
            } catch let error as AVError {
                guard error.code == .fileFailedToParse, error.localizedDescription.contains("locked.mp4") else { exit(8) }
            }
        }
    }

    /// A motion-JPEG file whose 11th picture is garbage: the deck plays the ten before it,
    /// each as ffmpeg decodes it, then the session reports a runtime error naming the file.
    @Test func corruptFramePlaysWhatDecodesThenReportsARuntimeError() throws {
        let url = try DeckFixture.clip("garbled.avi", frames: 20, ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p", "-q:v", "5"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuvj420p")
        try #require(expected.count == 20)
        var data = try Data(contentsOf: url)
        // Each picture starts with SOI (FF D8 FF); scramble all of the 11th after its SOI.
        let starts = data.indices.dropLast(2).filter { data[$0] == 0xFF && data[$0 + 1] == 0xD8 && data[$0 + 2] == 0xFF }
        try #require(starts.count == 20)
        for i in (starts[10] + 2)..<(starts[11] - 8) { data[i] = data[i] &* 7 &+ 13 }
        try data.write(to: url)
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        let session = AVCaptureSession()
        let errors = RuntimeErrorWatch(session)
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        try output.setVideoSettings([kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8PlanarFullRange])
        output.alwaysDiscardsLateVideoFrames = false
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        let reported = errors.wait()
        collector.queue.sync {}
        #expect(reported?.localizedDescription.contains("garbled.avi") == true, "\(String(describing: reported))")
        #expect(collector.hashes == Array(expected.prefix(10)))
    }

    /// At 8x in real time (200 frames a second) into a delegate that takes 25 ms a frame:
    /// frames the consumer is too slow for are dropped and reported; those delivered come
    /// in order, each as ffmpeg decodes it, on the file's timeline over 8.
    @Test func slowConsumerAtEightTimesGetsFramesSkipped() throws {
        let url = try DeckFixture.clip("fast.y4m", frames: 40, ["-pix_fmt", "yuv420p"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuv420p")
        let index = Dictionary(uniqueKeysWithValues: expected.enumerated().map { ($1, $0) })
        let device = try AVCaptureDevice.fileDeck(url: url)
        try DeckFixture.transport(device, .playing, 8)
        let collector = DeckCollector()
        collector.onFrame = { _ in usleep(25_000) }
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector, discardsLate: true)
        defer { session.stopRunning() }
        DeckFixture.waitForStop(device, collector)
        let played = collector.hashes.map { index[$0] ?? -1 }
        #expect(played.count >= 2 && played.count < 40, "\(played)")
        #expect(zip(played.dropFirst(), played).allSatisfy { $0 > $1 }, "in file order, none repeated: \(played)")
        #expect(!played.contains(-1))
        #expect(collector.drops > 0 && collector.drops + played.count <= 40, "\(collector.drops) drops, \(played.count) frames")
        // Stamped on the file's timeline at 8x: frame f at the first frame's time + (f - first) × 5 ms.
        let times = collector.times
        for (frame, time) in zip(played, times) {
            let offset = (time - times[0]).seconds
            #expect(abs(offset - Double(frame - played[0]) * 0.005) < 1e-6, "frame \(frame) at \(offset)")
        }
    }

    /// Speeding up from 1 to 4 in the delegate: the next frame the deck makes (one more at
    /// most, the one in flight) comes a quarter interval after its neighbour; every frame is
    /// delivered, in order, none skipped or repeated.
    @Test func speedChangeMidStreamLandsOnTheNextFrame() throws {
        let url = try DeckFixture.clip("faster.y4m", frames: 12, ["-pix_fmt", "yuv420p"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuv420p")
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        collector.onFrame = { number in
            if number == 4 { try? DeckFixture.transport(device, .playing, 4) }
        }
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        collector.wait(for: 12)
        DeckFixture.waitForStop(device, collector)
        #expect(collector.hashes == expected)
        let times = collector.times
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1).seconds }
        let first = try #require(gaps.firstIndex { abs($0 - 0.01) < 1e-6 }, "\(gaps)")
        #expect(first == 4 || first == 5, "the change landed after frame \(first): \(gaps)")
        #expect(gaps[..<first].allSatisfy { abs($0 - 0.04) < 1e-6 } && gaps[first...].allSatisfy { abs($0 - 0.01) < 1e-6 }, "\(gaps)")
    }
}
