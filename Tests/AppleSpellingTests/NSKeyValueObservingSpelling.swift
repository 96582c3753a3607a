// NSKeyValueObserving.h (Foundation) as capture code uses it: AVCam observes
// `systemPreferredCamera` with the string form on the class object and with `observe` on
// the metatype. One difference from iOS: Swift on Linux has no Objective-C runtime, so the
// observer declares `NSKeyValueObserving` and implements `observeValue` without `override`
// and `super` (docs/ARCHITECTURE.md, "Key-value observing").
import AVFoundation
import Foundation
import Synchronization
import Testing

/// AVCam's observer of the system-preferred camera, less `override`/`super`.
final class PreferredCameraObserver: NSObject, NSKeyValueObserving, @unchecked Sendable {
    let seen = Mutex<[(String?, Bool, String?)]>([])

    func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
                      context: UnsafeMutableRawPointer?) {
        let isClass = object as? AVCaptureDevice.Type == AVCaptureDevice.self
        let new = (change?[.newKey] as? AVCaptureDevice)?.uniqueID
        seen.withLock { $0.append((keyPath, isClass, new)) }
    }
}

/// The string form and the typed form on the class object; compiled, never called.
func spellNSKeyValueObserving(_ observer: PreferredCameraObserver) {
    AVCaptureDevice.self.addObserver(observer, forKeyPath: "systemPreferredCamera", options: [.new], context: nil)
    AVCaptureDevice.self.removeObserver(observer, forKeyPath: "systemPreferredCamera")
    AVCaptureDevice.self.addObserver(observer, forKeyPath: "userPreferredCamera", options: [.initial, .old, .new, .prior], context: nil)
    AVCaptureDevice.self.removeObserver(observer, forKeyPath: "userPreferredCamera", context: nil)
    let observation: NSKeyValueObservation = AVCaptureDevice.self.observe(\.systemPreferredCamera, options: [.new]) { _, change in
        let camera: AVCaptureDevice?? = change.newValue
        _ = camera
    }
    observation.invalidate()
}

@Suite("NSKeyValueObserving spelling", .serialized)
struct NSKeyValueObservingSpellingTests {
    @Test("AVCaptureDevice.self.addObserver(_:forKeyPath:) tells the observer of the class object, until removeObserver")
    func classStringForm() throws {
        let front = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        let back = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        AVCaptureDevice.userPreferredCamera = back
        defer { AVCaptureDevice.userPreferredCamera = back }
        let observer = PreferredCameraObserver()
        AVCaptureDevice.self.addObserver(observer, forKeyPath: "systemPreferredCamera", options: [.initial, .new], context: nil)
        AVCaptureDevice.userPreferredCamera = front
        AVCaptureDevice.self.removeObserver(observer, forKeyPath: "systemPreferredCamera")
        AVCaptureDevice.userPreferredCamera = back
        let seen = observer.seen.withLock { $0 }
        let keyPaths = seen.map { $0.0 }, ofClass = seen.map { $0.1 }, cameras = seen.map { $0.2 }
        #expect(keyPaths == ["systemPreferredCamera", "systemPreferredCamera"])
        #expect(ofClass == [true, true])
        #expect(cameras == ["sim:back-wide", "sim:front-wide"])
    }
}

/// `observe` on the other capture classes, as apps write it (react-native-vision-camera's
/// `discoverySession.observe(\.devices, options: [.new])` first); compiled, never called.
func spellCaptureClassObservation(
    _ discovery: AVCaptureDevice.DiscoverySession, _ input: AVCaptureDeviceInput, _ port: AVCaptureInput.Port,
    _ movie: AVCaptureMovieFileOutput, _ metadata: AVCaptureMetadataOutput, _ video: AVCaptureVideoDataOutput,
    _ audio: AVCaptureAudioDataOutput, _ depth: AVCaptureDepthDataOutput, _ output: AVCaptureOutput,
    _ metadataInput: AVCaptureMetadataInput, _ channel: AVCaptureAudioChannel
) -> [NSKeyValueObservation] {
    [
        discovery.observe(\.devices, options: [.new]) { _, change in
            let devices: [AVCaptureDevice]? = change.newValue
            _ = devices
        },
        input.observe(\.unifiedAutoExposureDefaultsEnabled, options: [.old, .new]) { _, _ in },
        port.observe(\.isEnabled, options: [.new]) { _, change in
            let enabled: Bool? = change.newValue
            _ = enabled
        },
        movie.observe(\.isRecording, options: [.new]) { _, _ in },
        movie.observe(\.maxRecordedDuration, options: [.new]) { _, _ in },
        metadata.observe(\.metadataObjectTypes, options: [.new]) { _, _ in },
        metadata.observe(\.rectOfInterest, options: [.new]) { _, _ in },
        video.observe(\.videoSettings, options: [.new]) { _, _ in },
        audio.observe(\.connections, options: [.new]) { _, _ in },
        depth.observe(\.isFilteringEnabled, options: [.new]) { _, _ in },
        output.observe(\.connections, options: [.initial, .new]) { _, _ in },
        metadataInput.observe(\.ports, options: [.new]) { _, _ in },
        channel.observe(\.averagePowerLevel, options: [.initial, .new]) { _, _ in },
        AVCaptureDevice.self.observe(\.isCenterStageEnabled, options: [.new]) { _, _ in },
        AVCaptureDevice.self.observe(\.centerStageControlMode, options: [.new]) { _, _ in },
    ]
}

@Suite("NSKeyValueObserving spelling on the other capture classes")
struct CaptureClassObservationSpellingTests {
    @Test("a discovery session's devices, a port's isEnabled and an output's videoSettings are observable with .initial")
    func initialValues() throws {
        let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.builtInWideAngleCamera], mediaType: .video, position: .back)
        let seen = Mutex<[String]>([])
        let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let port = try #require(try AVCaptureDeviceInput(device: device).ports.first)
        let video = AVCaptureVideoDataOutput()
        let observations = [
            discovery.observe(\.devices, options: [.initial, .new]) { _, change in
                seen.withLock { $0.append("devices \((change.newValue?.count ?? 0) > 0)") }
            },
            port.observe(\.isEnabled, options: [.new]) { _, change in
                seen.withLock { $0.append("enabled \(change.newValue == true)") }
            },
            video.observe(\.alwaysDiscardsLateVideoFrames, options: [.old]) { _, change in
                seen.withLock { $0.append("late \(change.oldValue == true)") }
            },
        ]
        port.isEnabled = false
        video.alwaysDiscardsLateVideoFrames = false
        observations.forEach { $0.invalidate() }
        #expect(seen.withLock { $0 } == ["devices true", "enabled false", "late true"])
    }
}

/// `observe` on the asset classes and a movie recording's state, as recorders write it
/// (NextLevel-style writers watch `isReadyForMoreMediaData` and `status`; camera apps
/// `isRecording`); compiled, never called.
func spellAssetObservation(
    _ writer: AVAssetWriter, _ writerInput: AVAssetWriterInput, _ reader: AVAssetReader, _ export: AVAssetExportSession,
    _ movie: AVCaptureMovieFileOutput, _ fileOutput: AVCaptureFileOutput, _ input: AVCaptureDeviceInput
) -> [NSKeyValueObservation] {
    [
        writer.observe(\.status, options: [.old, .new]) { _, change in
            let status: AVAssetWriter.Status? = change.newValue
            _ = status
        },
        writer.observe(\.error, options: [.new]) { _, _ in },
        writerInput.observe(\.isReadyForMoreMediaData, options: [.new]) { _, change in
            let ready: Bool? = change.newValue
            _ = ready
        },
        reader.observe(\.status, options: [.new]) { _, _ in },
        reader.observe(\.error, options: [.new]) { _, _ in },
        export.observe(\.status, options: [.initial, .new]) { _, change in
            let status: AVAssetExportSession.Status? = change.newValue
            _ = status
        },
        export.observe(\.error, options: [.new]) { _, _ in },
        movie.observe(\.isRecordingPaused, options: [.new]) { _, _ in },
        movie.observe(\.outputFileURL, options: [.old, .new]) { _, change in
            let url: URL?? = change.newValue
            _ = url
        },
        fileOutput.observe(\.isRecording, options: [.new]) { _, _ in },
        input.observe(\.videoMinFrameDurationOverride, options: [.old, .new]) { _, _ in },
    ]
}
