import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// Hears a readiness coordinator's changes.
final class ReadinessRecorder: NSObject, AVCapturePhotoOutputReadinessCoordinatorDelegate, @unchecked Sendable {
    static let queueKey = DispatchSpecificKey<String>()
    let seen = Mutex<[AVCapturePhotoOutput.CaptureReadiness]>([])
    let queues = Mutex<[String]>([])

    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {
        seen.withLock { $0.append(captureReadiness) }
        queues.withLock { $0.append(DispatchQueue.getSpecific(key: Self.queueKey) ?? "other") }
    }
}

/// Readiness, the coordinator, processing-time estimates, scene
/// monitoring and the deprecated high-resolution switches, at CIF size.
@Suite("Photo readiness and preparation", .serialized)
struct PhotoReadinessTests {
    static func small() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings()
        settings.maxPhotoDimensions = PhotoCodecTests.small
        return settings
    }

    @Test("captureReadiness: not running, ready, waiting for the capture, then for processing, ready again; observed and coordinated")
    func readinessFollowsTheCapture() throws {
        let output = AVCapturePhotoOutput()
        #expect(output.captureReadiness == .sessionNotRunning)
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let photo = rig.photoOutput
        #expect(photo.captureReadiness == .ready)
        let observed = KVORecorder()
        let observation = photo.observe(\.captureReadiness, options: [.new]) { _, change in observed.record(change) }
        defer { observation.invalidate() }
        let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: photo)
        let heard = ReadinessRecorder()
        photo.callbackQueue.setSpecific(key: ReadinessRecorder.queueKey, value: "photo")
        DispatchQueue.main.setSpecific(key: ReadinessRecorder.queueKey, value: "main")
        coordinator.delegate = heard
        #expect(coordinator.captureReadiness == .ready)

        let settings = Self.small()
        coordinator.startTrackingCaptureRequest(using: settings)
        #expect(coordinator.captureReadiness == .notReadyWaitingForCapture)
        #expect(photo.captureReadiness == .ready, "the output itself has no request yet")
        _ = try rig.take(settings)
        eventually("the coordinator is ready again") { coordinator.captureReadiness == .ready }
        eventually("the delegate heard it") { heard.seen.withLock { $0.last } == .ready }
        #expect(photo.captureReadiness == .ready)
        let news = observed.calls.compactMap(\.new)
        #expect(news.first == "notReadyWaitingForCapture")
        #expect(news.contains("notReadyWaitingForProcessing"))
        #expect(news.last == "ready")
        #expect(heard.seen.withLock { $0.first } == .notReadyWaitingForCapture)
        // AVCapturePhotoOutput.h (iOS 17): the coordinator's delegate callbacks come on the main queue.
        #expect(heard.queues.withLock { !$0.isEmpty && $0.allSatisfy { $0 == "main" } }, "\(heard.queues.withLock { $0 })")

        // A request the app gives up on stops counting.
        let abandoned = Self.small()
        coordinator.startTrackingCaptureRequest(using: abandoned)
        #expect(coordinator.captureReadiness == .notReadyWaitingForCapture)
        coordinator.stopTrackingCaptureRequest(using: abandoned.uniqueID)
        #expect(coordinator.captureReadiness == .ready)

        rig.rig.session.stopRunning()
        #expect(photo.captureReadiness == .sessionNotRunning)
        eventually("the coordinator follows the stop") { coordinator.captureReadiness == .sessionNotRunning }
        #expect(observed.calls.last?.new == "sessionNotRunning")
    }

    @Test("photoProcessingTimeRange: invalid for the first photo of a kind, then the range of what was measured")
    func processingTimeRange() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let (first, _) = try rig.take(Self.small())
        #expect(try #require(first).resolvedSettings.photoProcessingTimeRange == .invalid)
        let (second, _) = try rig.take(Self.small())
        let range = try #require(second).resolvedSettings.photoProcessingTimeRange
        #expect(range.start.isValid && range.start.seconds > 0 && range.start.seconds < 10)
        #expect(range.duration == .zero, "one measurement: the shortest is the longest")
        // Another kind (HEVC) has no measurements yet.
        let heic = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        heic.maxPhotoDimensions = PhotoCodecTests.small
        let (third, _) = try rig.take(heic)
        #expect(try #require(third).resolvedSettings.photoProcessingTimeRange == .invalid)
    }

    @Test("isFlashScene follows the scene's light with auto-flash monitoring settings, and notifies")
    func flashScene() throws {
        let rig = try PhotoRig(preset: .cif352x288, luminance: 1, settle: 30)
        defer { rig.stop() }
        rig.rig.collector.delay = 0
        let photo = rig.photoOutput
        #expect(rig.rig.device.iso >= PhotoCapture.autoFlashISO, "a dark room needs the auto flash's gain")
        #expect(!photo.isFlashScene, "no monitoring settings")
        let observed = KVORecorder()
        let observation = photo.observe(\.isFlashScene, options: [.new]) { _, change in observed.record(change) }
        defer { observation.invalidate() }
        let monitoring = AVCapturePhotoSettings()
        monitoring.flashMode = .auto
        photo.photoSettingsForSceneMonitoring = monitoring
        #expect(photo.isFlashScene)
        #expect(observed.calls.last?.new == "true" && observed.calls.last?.queue == "caller")
        rig.rig.device.simulation?.sceneLuminance = 200
        eventually("the bright scene needs no flash") { !photo.isFlashScene }
        eventually("observers heard it") { observed.calls.last?.new == "false" }
        #expect(observed.calls.last?.queue.hasPrefix("OpenCapture.kvo.") == true, "the camera's change comes on its change queue")
        monitoring.flashMode = .off
        photo.photoSettingsForSceneMonitoring = monitoring
        rig.rig.device.simulation?.sceneLuminance = 1
        #expect(!photo.isFlashScene, "without auto flash the scene never fires it")
    }

    @Test("deprecated high resolution: on by default; off gives video-sized photos; a high-resolution photo then raises")
    func highResolution() throws {
        let rig = try PhotoRig(preset: .cif352x288, settle: 3)
        defer { rig.stop() }
        let output = rig.photoOutput
        let photo: any DeprecatedHighResolutionOutput = output
        #expect(photo.isHighResolutionCaptureEnabled)
        photo.isHighResolutionCaptureEnabled = false
        #expect(!photo.isHighResolutionCaptureEnabled)
        #expect(photo.maxPhotoDimensions == PhotoCodecTests.small)
        let settings: any DeprecatedHighResolutionSettings = AVCapturePhotoSettings()
        #expect(!settings.isHighResolutionPhotoEnabled)
        settings.isHighResolutionPhotoEnabled = true
        let thrown = #expect(throws: AVCaptureException.self) {
            try output.capturePhotoChecked(with: settings as! AVCapturePhotoSettings, delegate: PhotoRecorder())
        }
        #expect(thrown?.reason.contains("highResolutionPhotoEnabled may not be YES unless self.highResolutionCaptureEnabled is YES") == true)
        photo.isHighResolutionCaptureEnabled = true
        #expect(photo.maxPhotoDimensions == rig.rig.device.activeFormat.supportedMaxPhotoDimensions.last)
    }

    @Test("without a camera Live Photos, zero shutter lag, responsive capture and fast capture prioritization are unsupported; Live Photo settings need Live Photo capture")
    func unsupportedFeatures() throws {
        let photo = AVCapturePhotoOutput()
        #expect(!photo.isLivePhotoCaptureSupported && !photo.isLivePhotoCaptureEnabled && !photo.isLivePhotoCaptureSuspended)
        #expect(photo.availableLivePhotoVideoCodecTypes.isEmpty)
        #expect(!photo.isZeroShutterLagSupported && !photo.isZeroShutterLagEnabled)
        #expect(!photo.isResponsiveCaptureSupported && !photo.isResponsiveCaptureEnabled)
        #expect(!photo.isFastCapturePrioritizationSupported && !photo.isFastCapturePrioritizationEnabled)
        photo.isLivePhotoCaptureEnabled = false  // false is always allowed
        photo.isZeroShutterLagEnabled = false
        let settings = AVCapturePhotoSettings()
        #expect(settings.livePhotoMovieFileURL == nil && settings.livePhotoVideoCodecType == .h264)
        let rig = try PhotoRig(preset: .cif352x288, settle: 1)
        defer { rig.stop() }
        let live = Self.small()
        live.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/never.mov")
        let thrown = #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: live, delegate: PhotoRecorder()) }
        #expect(thrown?.reason.contains("livePhotoCaptureEnabled is YES") == true)
        // Bracketing: up to four exposures, no lens stabilization (BracketPhotoTests takes them).
        #expect(rig.photoOutput.maxBracketedCapturePhotoCount == 4 && !rig.photoOutput.isLensStabilizationDuringBracketedCaptureSupported)
        let bracket = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: nil,
            bracketedSettings: (0..<5).map { _ in AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: -2) })
        #expect(bracket.bracketedSettings.count == 5 && bracket.processedFileType == .jpg)
        let refused = #expect(throws: AVCaptureException.self) { try rig.photoOutput.capturePhotoChecked(with: bracket, delegate: PhotoRecorder()) }
        #expect(refused?.reason.contains("bracketedSettings.count (5) must be <= maxBracketedCapturePhotoCount (4)") == true)
    }
}

/// The deprecated high-resolution switches, reached through protocols so the tests compile
/// without deprecation warnings (which the build treats as errors).
protocol DeprecatedHighResolutionOutput: AnyObject {
    var isHighResolutionCaptureEnabled: Bool { get set }
    var maxPhotoDimensions: CMVideoDimensions { get set }
}

extension AVCapturePhotoOutput: DeprecatedHighResolutionOutput {}

protocol DeprecatedHighResolutionSettings: AnyObject {
    var isHighResolutionPhotoEnabled: Bool { get set }
}

extension AVCapturePhotoSettings: DeprecatedHighResolutionSettings {}

/// Where iOS raises for an unsupported photo feature, the process ends with its message.
@Suite("Photo feature exceptions end the process")
struct PhotoFeatureExitTests {
    @Test func enablingLivePhotosRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isLivePhotoCaptureEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains(
            "'NSInvalidArgumentException', reason: '*** -[AVCapturePhotoOutput setLivePhotoCaptureEnabled:] livePhotoCaptureSupported is NO'"))
    }

    @Test func enablingResponsiveCaptureRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            AVCapturePhotoOutput().isResponsiveCaptureEnabled = true
        }
        #expect(ExceptionExitTests.message(result).contains("-[AVCapturePhotoOutput setResponsiveCaptureEnabled:] responsiveCaptureSupported is NO"))
    }

    @Test func addingADepthOutputRaises() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardErrorContent]) {
            let session = AVCaptureSession()
            session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice(uniqueID: "sim:back-wide")!))
            session.addOutput(AVCaptureDepthDataOutput())
        }
        #expect(ExceptionExitTests.message(result).contains("'NSInvalidArgumentException', reason: '*** -[AVCaptureSession addOutput:]"))
    }
}
