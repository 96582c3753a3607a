import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Records a Live Photo capture's callbacks and what they carried.
final class LivePhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    struct Movie {
        var url: URL
        var duration: CMTime
        var photoDisplayTime: CMTime
        var error: (any Error)?
    }

    let events = Mutex<[String]>([])
    let photo = Mutex<AVCapturePhoto?>(nil)
    let movie = Mutex<Movie?>(nil)
    let captureError = Mutex<(any Error)?>(nil)
    let resolved = Mutex<AVCaptureResolvedPhotoSettings?>(nil)
    let done = Completion<Void>("the Live Photo capture's end")

    private func note(_ event: String) { events.withLock { $0.append(event) } }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        resolved.withLock { $0 = resolvedSettings }
        note("willBegin")
    }
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) { note("willCapture") }
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) { note("didCapture") }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        self.photo.withLock { $0 = photo }
        note("didFinishProcessing")
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings
    ) { note("didFinishRecordingLivePhotoMovie") }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {
        movie.withLock { $0 = Movie(url: outputFileURL, duration: duration, photoDisplayTime: photoDisplayTime, error: error) }
        note("didFinishProcessingLivePhotoToMovieFile")
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        captureError.withLock { $0 = error }
        note("didFinishCapture")
        done.fulfil()
    }
}

/// exiftool's tags of several files in one run, in order (the still's maker-note tag 0x0011
/// is MediaGroupUUID since exiftool 12.19, ContentIdentifier before).
func exiftoolFiles(_ urls: [URL], _ arguments: [String]) -> [[String: Any]] {
    (try? ExifTool.tags(urls.map(\.path), arguments)) ?? []
}

/// Live Photos on a simulated camera at CIF size in virtual time (a 3 s movie takes a
/// fraction of a second), read back with ffprobe and exiftool.
@Suite("Live Photos", .serialized)
struct LivePhotoTests {
    static let order = [
        "willBegin", "willCapture", "didCapture", "didFinishProcessing", "didFinishRecordingLivePhotoMovie",
        "didFinishProcessingLivePhotoToMovieFile", "didFinishCapture",
    ]

    /// A running session with Live Photo capture enabled before it started, and the ring full.
    static func rig(filled: Bool = true) throws -> (TestRig, AVCapturePhotoOutput) {
        let rig = try TestRig(preset: .cif352x288)
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        #expect(photo.isLivePhotoCaptureSupported && !photo.isLivePhotoCaptureEnabled && photo.isLivePhotoAutoTrimmingEnabled)
        photo.isLivePhotoCaptureEnabled = true
        rig.session.startRunning()
        _ = try rig.collector.waitForFrames(filled ? 50 : 3)  // 1.5 s of frames at 30 frames a second
        return (rig, photo)
    }

    static func take(_ photo: AVCapturePhotoOutput, to url: URL, codec: AVVideoCodecType = .h264, then: () -> Void = {}) throws -> LivePhotoDelegate {
        let settings = PhotoReadinessTests.small()
        settings.livePhotoMovieFileURL = url
        settings.livePhotoVideoCodecType = codec
        let delegate = LivePhotoDelegate()
        try photo.capturePhotoChecked(with: settings, delegate: delegate)
        then()
        try delegate.done.wait()
        return delegate
    }

    @Test("a Live Photo: the still and a 3 s H.264 QuickTime movie around it, the delegate in Apple's order, one content identifier in both files")
    func livePhoto() throws {
        let (rig, photo) = try Self.rig()
        defer { rig.stop() }
        #expect(photo.availableLivePhotoVideoCodecTypes.contains(.h264))
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let delegate = try Self.take(photo, to: url)
        #expect(delegate.events.withLock { $0 } == Self.order)
        #expect(delegate.captureError.withLock { $0 } == nil)
        #expect(delegate.resolved.withLock { $0?.livePhotoMovieDimensions } == CMVideoDimensions(width: 352, height: 288))
        let movie = try #require(delegate.movie.withLock { $0 })
        #expect(movie.error == nil && movie.url == url)
        #expect(abs(movie.duration.seconds - 3) < 0.1, "about 1.5 s either side: \(movie.duration.seconds) s")
        #expect(abs(movie.photoDisplayTime.seconds - 1.5) < 0.1, "the still shows at \(movie.photoDisplayTime.seconds) s")
        let still = try #require(delegate.photo.withLock { $0 })
        let identifier = try #require((still.metadata["{MakerApple}"] as? [String: Any])?["17"] as? String)
        #expect(UUID(uuidString: identifier) != nil)

        // One exiftool run reads both files: the movie's QuickTime tags and the still's maker note.
        let stillURL = temporaryFile("jpg")
        defer { try? FileManager.default.removeItem(at: stillURL) }
        try #require(still.fileDataRepresentation()).write(to: stillURL)
        let tags = exiftoolFiles([url, stillURL], ["-n", "-ContentIdentifier", "-Duration", "-CompressorID", "-ImageWidth", "-ImageHeight",
            "-VideoFrameRate", "-MakerNotes:MediaGroupUUID", "-MakerNotes:ContentIdentifier"])
        let movieTags = tags.first ?? [:], stillTags = tags.last ?? [:]
        #expect(movieTags["ContentIdentifier"] as? String == identifier, "QuickTime com.apple.quicktime.content.identifier")
        #expect((stillTags["MediaGroupUUID"] ?? stillTags["ContentIdentifier"]) as? String == identifier, "Apple maker note tag 0x0011")
        #expect(movieTags["CompressorID"] as? String == "avc1" && movieTags["ImageWidth"] as? Int == 352 && movieTags["ImageHeight"] as? Int == 288)
        #expect(abs((movieTags["Duration"] as? Double ?? 0) - 3) < 0.1 && abs((movieTags["VideoFrameRate"] as? Double ?? 0) - 30) < 1, "\(movieTags)")

        // The still's time as an iPhone marks it: a timed-metadata track ('mebx') whose one
        // sample, com.apple.quicktime.still-image-time = -1, starts at the photo's display time.
        let stillTime = exiftoolFiles([url], ["-ee", "-n", "-StillImageTime"]).first ?? [:]
        #expect(stillTime["StillImageTime"] as? Int == -1, "\(stillTime)")
        let packets = runTool(
            "/usr/bin/ffprobe", ["-v", "error", "-select_streams", "d:0", "-show_entries", "stream=codec_tag_string:packet=pts_time", "-of", "csv=p=0", url.path]) ?? ""
        let lines = packets.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.contains("mebx"), "\(packets)")
        let firstSample = lines.compactMap(Double.init).first
        #expect(abs((firstSample ?? -1) - movie.photoDisplayTime.seconds) < 0.001, "the marker at \(String(describing: firstSample)) s")
    }

    @Test("an HEVC Live Photo's HEIC still carries the identifier too")
    func hevcLivePhoto() throws {
        let (rig, photo) = try Self.rig(filled: false)  // the codec is what is tested, not the length
        defer { rig.stop() }
        guard photo.availableLivePhotoVideoCodecTypes.contains(.hevc) else { return }
        #expect(photo.availableLivePhotoVideoCodecTypes == [.hevc, .h264])
        let url = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        settings.maxPhotoDimensions = PhotoCodecTests.small
        settings.livePhotoMovieFileURL = url
        settings.livePhotoVideoCodecType = .hevc
        let delegate = LivePhotoDelegate()
        try photo.capturePhotoChecked(with: settings, delegate: delegate)
        try delegate.done.wait()
        #expect(delegate.movie.withLock { $0?.error } == nil)
        let heic = temporaryFile("heic")
        defer { try? FileManager.default.removeItem(at: heic) }
        try #require(delegate.photo.withLock { $0 }?.fileDataRepresentation()).write(to: heic)
        let tags = exiftoolFiles([url, heic], ["-ContentIdentifier", "-CompressorID", "-FileType", "-MakerNotes:MediaGroupUUID", "-MakerNotes:ContentIdentifier"])
        let identifier = tags.first?["ContentIdentifier"] as? String
        #expect(tags.first?["CompressorID"] as? String == "hvc1")
        #expect(tags.last?["FileType"] as? String == "HEIC")
        #expect(identifier != nil && (tags.last?["MediaGroupUUID"] ?? tags.last?["ContentIdentifier"]) as? String == identifier)
    }

    @Test("auto trimming cuts the movie where the picture jumps; without it the whole 3 s stay")
    func autoTrimming() throws {
        let (rig, photo) = try Self.rig()
        defer {
            rig.stop()
            rig.device.simulation?.sceneLuminance = 200
        }
        let trimmedURL = temporaryFile("mov"), wholeURL = temporaryFile("mov")
        defer {
            try? FileManager.default.removeItem(at: trimmedURL)
            try? FileManager.default.removeItem(at: wholeURL)
        }
        let light = rig.device.simulation?.sceneLuminance ?? 200
        // The light jumps right after the call: frames after the still are far brighter.
        let trimmed = try Self.take(photo, to: trimmedURL) { rig.device.simulation?.sceneLuminance = light * 16 }
        let trimmedDuration = try #require(trimmed.movie.withLock { $0?.duration }).seconds
        #expect(trimmedDuration > 1.3 && trimmedDuration < 1.8, "cut at the jump after the still: \(trimmedDuration) s")
        rig.device.simulation?.sceneLuminance = light
        _ = try rig.collector.waitForMoreFrames(60)
        photo.isLivePhotoAutoTrimmingEnabled = false
        let whole = try Self.take(photo, to: wholeURL) { rig.device.simulation?.sceneLuminance = light * 16 }
        #expect(abs(try #require(whole.movie.withLock { $0?.duration }).seconds - 3) < 0.1)
    }

    @Test("an unwritable movie URL or an existing file ends in the delegate's error, and nothing is left half-written")
    func unwritableMovie() throws {
        let (rig, photo) = try Self.rig()
        defer { rig.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oc-missing-\(UUID().uuidString)")
        let missing = directory.appendingPathComponent("live.mov")
        let failed = try Self.take(photo, to: missing)
        #expect(failed.events.withLock { $0 } == Self.order)
        #expect(failed.movie.withLock { $0?.error } != nil)
        #expect(failed.captureError.withLock { $0 } != nil, "the capture ends with the movie's error")
        #expect(failed.photo.withLock { $0 }?.fileDataRepresentation() != nil, "the still itself was fine")
        #expect(!FileManager.default.fileExists(atPath: directory.path))

        let existing = temporaryFile("mov")
        defer { try? FileManager.default.removeItem(at: existing) }
        try Data("mine".utf8).write(to: existing)
        let refused = try Self.take(photo, to: existing)
        #expect((refused.movie.withLock { $0?.error } as? AVError)?.code == .fileAlreadyExists)
        #expect(try Data(contentsOf: existing) == Data("mine".utf8), "the file there is untouched")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: existing.deletingLastPathComponent().path)
            .filter { $0.hasSuffix(".partial") && $0.contains(existing.lastPathComponent) }
        #expect(leftovers.isEmpty)
    }

    @Test("settings rules: Live Photo capture enabled, not suspended, a file URL, an available codec")
    func settingsRules() throws {
        let (rig, photo) = try Self.rig()
        defer { rig.stop() }
        func refusal(_ change: (AVCapturePhotoSettings) -> Void) -> String? {
            let settings = PhotoReadinessTests.small()
            settings.livePhotoMovieFileURL = temporaryFile("mov")
            change(settings)
            let thrown = #expect(throws: AVCaptureException.self) { try photo.capturePhotoChecked(with: settings, delegate: LivePhotoDelegate()) }
            return thrown?.reason
        }
        #expect(refusal { $0.livePhotoMovieFileURL = URL(string: "https://example.com/a.mov") }?.contains("must be a file URL") == true)
        #expect(refusal { $0.livePhotoVideoCodecType = .jpeg }?.contains("livePhotoVideoCodecType") == true)
        photo.isLivePhotoCaptureSuspended = true
        #expect(refusal { _ in }?.contains("livePhotoCaptureSuspended") == true)
        #expect(photo.livePhotoRingBytes == 0, "suspended: no frames kept")
        photo.isLivePhotoCaptureSuspended = false
        photo.isLivePhotoCaptureEnabled = false
        #expect(refusal { _ in }?.contains("livePhotoCaptureEnabled is YES") == true)
    }

    @Test("the movie ring is bounded while Live Photo capture is on, and freed when it is off")
    func ringMemory() throws {
        let (rig, photo) = try Self.rig()
        defer { rig.stop() }
        _ = try rig.collector.waitForMoreFrames(30)
        let frameBytes = 352 * 288 * 3 / 2
        let held = photo.livePhotoRingBytes
        #expect(held >= 40 * frameBytes && held <= (LivePhotoRecorder.ringCapacity + 2) * frameBytes, "\(held) bytes")
        photo.isLivePhotoCaptureEnabled = false
        #expect(photo.livePhotoRingBytes == 0)
        photo.isLivePhotoCaptureEnabled = true
        eventually("filling again") { photo.livePhotoRingBytes > 0 }
        rig.session.stopRunning()
        #expect(photo.livePhotoRingBytes == 0, "the session stopping frees it")
    }
}

/// Apple's Live Photo switch rules end the process.
@Suite("Live Photo rules end the process")
struct LivePhotoExitTests {
    @Test func suspendingWithoutLivePhotoCapture() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output) = ResponsiveCaptureExitTests.connected()
            withExtendedLifetime(session) { output.isLivePhotoCaptureSuspended = true }
        }
        #expect(ExceptionExitTests.message(result).contains("-[AVCapturePhotoOutput setLivePhotoCaptureSuspended:] livePhotoCaptureEnabled is NO"))
    }

    @Test func liveSettingsWithoutLivePhotoCapture() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let (session, output) = ResponsiveCaptureExitTests.connected()
            session.startRunning()
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/never.mov")
            output.capturePhoto(with: settings, delegate: LivePhotoDelegate())
        }
        #expect(ExceptionExitTests.message(result).contains("livePhotoMovieFileURL may not be set unless self.livePhotoCaptureEnabled is YES"))
    }
}
