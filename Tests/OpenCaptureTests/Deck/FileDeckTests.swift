import Foundation
import Testing
import TestSupport

@testable import OpenCapture

/// The file deck: a video file played as a camera, with transport controls.
@Suite("File deck", .serialized, .tags(.slow))
struct FileDeckTests {
    /// A container and codec ffmpeg makes, and the pixel formats to compare in.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var pixelFormat: OSType
        var ffmpegFormat: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "h264.mp4", arguments: ["-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-bf", "2", "-pix_fmt", "yuv420p"],
             pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, ffmpegFormat: "yuv420p"),
        Case(name: "hevc.mp4", arguments: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "keyint=5:log-level=none", "-pix_fmt", "yuv420p"],
             pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, ffmpegFormat: "nv12"),
        Case(name: "hevc.mov", arguments: ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p"],
             pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, ffmpegFormat: "yuv420p"),
        Case(name: "mjpeg.avi", arguments: ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p", "-q:v", "5"],
             pixelFormat: kCVPixelFormatType_420YpCbCr8PlanarFullRange, ffmpegFormat: "yuvj420p"),
        Case(name: "vp9.mkv", arguments: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "6", "-pix_fmt", "yuv420p"],
             pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, ffmpegFormat: "yuv420p"),
        Case(name: "raw.y4m", arguments: ["-pix_fmt", "yuv420p"], pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, ffmpegFormat: "yuv420p"),
    ]

    /// Forwards to the end (the deck stops there), then backwards to the start: every frame
    /// equals ffmpeg's decoding of it, in order both ways.
    @Test(arguments: cases)
    func framesEqualFFmpegsForwardsAndBackwards(_ clip: Case) throws {
        let url = try DeckFixture.clip(clip.name, frames: 12, clip.arguments)
        let expected = try DeckFixture.hashes(url, pixelFormat: clip.ffmpegFormat)
        try #require(expected.count == 12)
        try playBothWays(url, pixelFormat: clip.pixelFormat, expected: expected)
    }

    @Test func imageSequencePlaysAsBGRA() throws {
        let folder = DeckFixture.directory.appendingPathComponent("seq-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pattern = folder.appendingPathComponent("frame-%03d.png")
        try DeckFixture.run(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", "8", "-y", pattern.path])
        let expected = try DeckFixture.hashes(pattern, pixelFormat: "bgra")
        try #require(expected.count == 8)
        try playBothWays(pattern, pixelFormat: kCVPixelFormatType_32BGRA, expected: expected)
    }

    private func playBothWays(_ url: URL, pixelFormat: OSType, expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        let session = try DeckFixture.session(device, pixelFormat: pixelFormat, collector: collector)
        defer { session.stopRunning() }
        collector.wait(for: expected.count)
        DeckFixture.waitForStop(device, collector)
        #expect(collector.hashes == expected, "forwards", sourceLocation: sourceLocation)
        #expect(device.transportControlsSpeed == 0)
        try DeckFixture.transport(device, .playing, -1)
        let all = collector.wait(for: 2 * expected.count - 1)
        DeckFixture.waitForStop(device, collector)
        #expect(Array(all.dropFirst(expected.count)) == Array(expected.dropLast().reversed()), "backwards", sourceLocation: sourceLocation)
    }

    /// Describes the file: the unique ID, one format of its size and rate, the presets.
    @Test func deckDescribesItsFile() throws {
        let url = try DeckFixture.clip("describe.mp4", frames: 3, ["-c:v", "libx264", "-preset", "ultrafast"])
        let device = try AVCaptureDevice.fileDeck(url: url)
        #expect(device.uniqueID == "file:" + url.path)
        #expect(device.deviceType == .external)
        #expect(device.transportControlsSupported)
        #expect(device.transportControlsPlaybackMode == .playing)
        #expect(device.transportControlsSpeed == 1)
        #expect(device.formats.count == 1)
        let format = try #require(device.formats.first)
        #expect(format.formatDescription.dimensions.width == 160 && format.formatDescription.dimensions.height == 120)
        #expect(format.videoSupportedFrameRateRanges.map(\.maxFrameRate) == [25])
        #expect(device.supportsSessionPreset(.high) && device.supportsSessionPreset(.low))
        #expect(!device.supportsSessionPreset(.hd1280x720))
        #expect(AVCaptureDevice(uniqueID: device.uniqueID) == device)
        #expect(try AVCaptureDevice.fileDeck(url: url) == device)
        #expect(device.deck?.frameRate == 25)
        #expect(!AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified).devices.contains(device))
    }

    @Test func badFilesAreClearErrors() throws {
        let missing = DeckFixture.directory.appendingPathComponent("missing.mp4")
        #expect { try AVCaptureDevice.fileDeck(url: missing) } throws: { ($0 as? AVError)?.code == .fileFailedToParse }
        let text = DeckFixture.directory.appendingPathComponent("notes.txt")
        try Data("not a movie at all, just words\n".utf8).write(to: text)
        #expect { try AVCaptureDevice.fileDeck(url: text) } throws: { ($0 as? AVError)?.code == .fileFormatNotRecognized }
        let audio = DeckFixture.directory.appendingPathComponent("tone.wav")
        try DeckFixture.run("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=duration=0.1", "-y", audio.path])
        #expect { try AVCaptureDevice.fileDeck(url: audio) } throws: { ($0 as? AVError)?.code == .fileFormatNotRecognized }
    }

    @Test func speedsOutsideTheRangeAreRefused() throws {
        let url = try DeckFixture.clip("speeds.mp4", frames: 3, ["-c:v", "libx264", "-preset", "ultrafast"])
        let device = try AVCaptureDevice.fileDeck(url: url)
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        for speed: Float in [10, -9, 0.1, -0.2, .nan, .infinity] {
            #expect(throws: AVCaptureException.self) { try device.setTransportControlsPlaybackModeChecked(.playing, speed: speed) }
        }
        for speed: Float in [0, 0.25, -0.25, 8, -8, 1.5] {
            try device.setTransportControlsPlaybackModeChecked(.playing, speed: speed)
            #expect(device.transportControlsSpeed == speed)
        }
        try device.setTransportControlsPlaybackModeChecked(.notPlaying, speed: 1)
        #expect(device.transportControlsPlaybackMode == .notPlaying)
    }

    @Test func outOfRangeSpeedRaisesInvalidArgument() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let url = try DeckFixture.clip("raise.mp4", frames: 2, ["-c:v", "libx264", "-preset", "ultrafast"])
            let device = try AVCaptureDevice.fileDeck(url: url)
            try device.lockForConfiguration()
            device.setTransportControlsPlaybackMode(.playing, speed: 16)
        }
        let message = ExceptionExitTests.message(result)
        #expect(message.contains("'NSInvalidArgumentException'"))
        #expect(message.contains("-[AVCaptureDevice setTransportControlsPlaybackMode:speed:] Unsupported speed 16.0"))
    }

    /// A change made in the delegate lands on the next frame the deck makes: its neighbour
    /// in the new direction, none skipped or repeated; going back returns the same frames.
    @Test func reversingMidStreamLandsOnTheNextFrame() throws {
        let url = try DeckFixture.clip("reverse.mp4", frames: 20, ["-c:v", "libx264", "-preset", "ultrafast", "-g", "6", "-bf", "2"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuv420p")
        let index = Dictionary(uniqueKeysWithValues: expected.enumerated().map { ($1, $0) })
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        collector.onFrame = { number in
            if number == 9 { try? DeckFixture.transport(device, .playing, -2) }
        }
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        collector.wait(for: 12)
        DeckFixture.waitForStop(device, collector)
        let played = collector.hashes.map { index[$0] ?? -1 }
        let turn = try #require(played.firstIndex { $0 == played.max() })
        #expect(turn == 9 || turn == 10, "turned at \(played)")
        #expect(Array(played[...turn]) == Array(0...turn), "\(played)")
        #expect(Array(played[turn...]) == Array((0...turn).reversed()), "\(played)")
    }

    /// Paused (`.notPlaying`) mid-stream, then played backwards: the frames come back with
    /// the checksums they had going forwards.
    @Test func pausingAndPlayingBackwardsReturnsTheSameFrames() throws {
        let url = try DeckFixture.clip("pause.mkv", frames: 16, ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "5"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuv420p")
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        collector.onFrame = { number in
            if number == 7 { try? DeckFixture.transport(device, .notPlaying, 1) }
        }
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        collector.wait(for: 8)
        #expect(device.transportControlsPlaybackMode == .notPlaying)
        try DeckFixture.transport(device, .playing, -1)
        DeckFixture.waitForStop(device, collector)
        // The frame in flight when the pause came (at most one) was shown; the way back starts before it.
        let all = collector.hashes
        let shown = (all.count + 1) / 2
        #expect(shown == 8 || shown == 9, "\(all.count) frames")
        #expect(Array(all.prefix(shown)) == Array(expected.prefix(shown)))
        #expect(Array(all.dropFirst(shown)) == Array(all.prefix(shown).dropLast().reversed()))
    }

    /// Timestamps rise at every speed, each gap the file's interval over the speed that made the frame.
    @Test func timestampsRiseOnTheSessionClockAtEverySpeed() throws {
        let url = try DeckFixture.clip("speeds.y4m", frames: 30, ["-pix_fmt", "yuv420p"])
        let device = try DeckFixture.deck(url, loops: true)
        let speeds: [Float] = [1, 0.25, 2, 8, -1, -4, 0.5]
        let collector = DeckCollector()
        collector.onFrame = { number in
            if number % 5 == 4, number / 5 + 1 < speeds.count { try? DeckFixture.transport(device, .playing, speeds[number / 5 + 1]) }
        }
        let before = CMClockGetTime(CMClockGetHostTimeClock())
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        collector.wait(for: 40)
        session.stopRunning()
        let times = collector.times
        #expect(times.first! >= before)
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1).seconds }
        #expect(gaps.allSatisfy { $0 > 0 }, "\(gaps)")
        let allowed = Set(speeds.map { 0.04 / Double(abs($0)) })
        for gap in gaps { #expect(allowed.contains { abs($0 - gap) < 1e-6 }, "gap \(gap)") }
        // Looping: the 30-frame file wrapped around (backwards past its start, too) without stopping.
        #expect(device.transportControlsPlaybackMode == .playing)
    }

    /// Real time at 8x (a frame every 5 ms), what holds however loaded the machine: each of
    /// the file's 10 frames is delivered or reported dropped (a frame a whole interval late
    /// is skipped, as a camera drops one), the first always delivered; those delivered come
    /// in file order, stamped on the host clock at the file's interval over 8 from the
    /// first, none delivered before its time. How many were dropped is printed.
    @Test func deckAtEightTimesSpeedInRealTimeAccountsForEveryFrame() throws {
        let url = try DeckFixture.clip("realtime.y4m", frames: 10, ["-pix_fmt", "yuv420p"])
        let expected = try DeckFixture.hashes(url, pixelFormat: "yuv420p")
        try #require(expected.count == 10 && Set(expected).count == 10)
        let index = Dictionary(uniqueKeysWithValues: expected.enumerated().map { ($1, $0) })
        let device = try AVCaptureDevice.fileDeck(url: url)
        try DeckFixture.transport(device, .playing, 8)
        let collector = DeckCollector()
        let arrivals = Mutex<[CMTime]>([])
        collector.onFrame = { _ in arrivals.withLock { $0.append(CMClockGetTime(CMClockGetHostTimeClock())) } }
        let before = CMClockGetTime(CMClockGetHostTimeClock())
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        DeckFixture.waitForStop(device, collector)
        let played = collector.hashes.map { index[$0] ?? -1 }
        #expect(played.first == 0 && !played.contains(-1), "\(played)")
        #expect(zip(played, played.dropFirst()).allSatisfy { $0 < $1 }, "in file order, none repeated: \(played)")
        #expect(played.count + collector.drops == 10, "\(played.count) frames delivered, \(collector.drops) dropped")
        let times = collector.times
        let start = try #require(times.first)
        #expect(start >= before)
        for (frame, time) in zip(played, times) {
            #expect(abs((time - start).seconds - Double(frame) * 0.005) < 1e-6, "frame \(frame) at \((time - start).seconds) s")
        }
        let arrived = arrivals.withLock { $0 }
        #expect(arrived.count == times.count && zip(arrived, times).allSatisfy { $0 >= $1 }, "delivered before its time")
        print("deck at 8x in real time, 160x120 y4m: \(played.count) of 10 frames delivered, \(collector.drops) dropped")
    }

    /// A file cut short plays what decodes, then the session reports a runtime error.
    @Test func truncatedFilePlaysThenReportsARuntimeError() throws {
        let url = try DeckFixture.clip("cut.mp4", frames: 20, ["-c:v", "libx264", "-preset", "ultrafast", "-g", "4", "-movflags", "+faststart"])
        let data = try Data(contentsOf: url)
        try data.prefix(data.count * 6 / 10).write(to: url)
        let device = try DeckFixture.deck(url)
        let collector = DeckCollector()
        let session = AVCaptureSession()
        let errors = RuntimeErrorWatch(session)
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        output.setSampleBufferDelegate(collector, queue: collector.queue)
        session.addOutput(output)
        session.startRunning()
        defer { session.stopRunning() }
        let reported = errors.wait()
        let frames = collector.hashes.count
        #expect(reported != nil, "no runtime error after \(frames) frames")
        #expect(reported?.localizedDescription.contains("cut.mp4") == true)
        #expect(frames >= 1 && frames < 20, "\(frames) frames")
    }

    /// Observers of the mode and the speed hear the setter, and the deck stopping at the end.
    @Test func observersHearTransportChanges() throws {
        let url = try DeckFixture.clip("kvo.y4m", frames: 4, ["-pix_fmt", "yuv420p"])
        let device = try DeckFixture.deck(url)
        let speeds = NSCondition()
        nonisolated(unsafe) var heard: [Float] = []
        nonisolated(unsafe) var modes: [AVCaptureDevice.TransportControlsPlaybackMode] = []
        let speedObservation = device.observe(\.transportControlsSpeed, options: [.new]) { _, change in
            speeds.withLock {
                heard.append(change.newValue ?? -99)
                speeds.broadcast()
            }
        }
        let modeObservation = device.observe(\.transportControlsPlaybackMode, options: [.new]) { _, change in
            speeds.withLock { modes.append(change.newValue ?? .playing) }
        }
        defer {
            speedObservation.invalidate()
            modeObservation.invalidate()
        }
        try DeckFixture.transport(device, .playing, 2)
        #expect(speeds.withLock { heard } == [2])
        let collector = DeckCollector()
        let session = try DeckFixture.session(device, pixelFormat: kCVPixelFormatType_420YpCbCr8Planar, collector: collector)
        defer { session.stopRunning() }
        collector.wait(for: 4)
        DeckFixture.waitForStop(device, collector)
        let deadline = Date(timeIntervalSinceNow: 5)
        speeds.lock()
        while heard.count < 2 && speeds.wait(until: deadline) {}
        speeds.unlock()
        #expect(speeds.withLock { heard } == [2, 0])
        #expect(speeds.withLock { modes } == [.playing, .notPlaying])
    }
}
