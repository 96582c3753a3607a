// AVCapturePhotoOutput.h's readiness, preparation, scene monitoring and the features
// answered as unsupported (Live Photos, zero shutter lag, responsive capture, fast
// capture prioritization), and AVCaptureStillImageOutput.h; spelled as iOS code spells
// them. Named apart from a whole-header file so the two can be merged.
import AVFoundation
import CoreMedia
import Foundation
import Testing

final class SpellingReadinessDelegate: NSObject, AVCapturePhotoOutputReadinessCoordinatorDelegate {
    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator, captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {}
}

final class SpellingLivePhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate {
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL, resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?
    ) {}
}

/// Touches the declarations; compiled, never called.
func spellAVCapturePhotoOutputReadiness(_ output: AVCapturePhotoOutput, resolved: AVCaptureResolvedPhotoSettings) async throws {
    let readiness: AVCapturePhotoOutput.CaptureReadiness = output.captureReadiness
    let all: [AVCapturePhotoOutput.CaptureReadiness] = [
        .sessionNotRunning, .ready, .notReadyMomentarily, .notReadyWaitingForCapture, .notReadyWaitingForProcessing,
    ]
    let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: output)
    let delegate = SpellingReadinessDelegate()
    coordinator.delegate = delegate
    let coordinated: AVCapturePhotoOutput.CaptureReadiness = coordinator.captureReadiness
    let settings = AVCapturePhotoSettings()
    coordinator.startTrackingCaptureRequest(using: settings)
    coordinator.stopTrackingCaptureRequest(using: settings.uniqueID)
    let observation: NSKeyValueObservation = output.observe(\.captureReadiness, options: [.new]) { _, _ in }
    let flash: NSKeyValueObservation = output.observe(\.isFlashScene) { _, _ in }

    output.setPreparedPhotoSettingsArray([settings]) { (prepared: Bool, error: (any Error)?) in _ = (prepared, error) }
    output.setPreparedPhotoSettingsArray([], completionHandler: nil)
    let prepared: Bool = try await output.setPreparedPhotoSettingsArray([AVCapturePhotoSettings()])
    let preparedArray: [AVCapturePhotoSettings] = output.preparedPhotoSettingsArray

    output.photoSettingsForSceneMonitoring = settings
    let monitoring: AVCapturePhotoSettings? = output.photoSettingsForSceneMonitoring
    let scenes: (Bool, Bool) = (output.isFlashScene, output.isStillImageStabilizationScene)

    let live: (Bool, Bool, Bool, Bool, Bool) = (
        output.isLivePhotoCaptureSupported, output.isLivePhotoCaptureEnabled, output.isLivePhotoCaptureSuspended,
        output.preservesLivePhotoCaptureSuspendedOnSessionStop, output.isLivePhotoAutoTrimmingEnabled
    )
    output.isLivePhotoCaptureEnabled = false
    output.isLivePhotoCaptureSuspended = false
    output.preservesLivePhotoCaptureSuspendedOnSessionStop = false
    output.isLivePhotoAutoTrimmingEnabled = false
    let liveCodecs: [AVVideoCodecType] = output.availableLivePhotoVideoCodecTypes
    let zsl: (Bool, Bool) = (output.isZeroShutterLagSupported, output.isZeroShutterLagEnabled)
    output.isZeroShutterLagEnabled = false
    let responsive: (Bool, Bool) = (output.isResponsiveCaptureSupported, output.isResponsiveCaptureEnabled)
    output.isResponsiveCaptureEnabled = false
    let fast: (Bool, Bool) = (output.isFastCapturePrioritizationSupported, output.isFastCapturePrioritizationEnabled)
    output.isFastCapturePrioritizationEnabled = false

    settings.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/live.mov")
    settings.livePhotoVideoCodecType = .hevc
    let movieURL: URL? = settings.livePhotoMovieFileURL
    let liveCodec: AVVideoCodecType = settings.livePhotoVideoCodecType
    let range: CMTimeRange = resolved.photoProcessingTimeRange
    let movieSize: CMVideoDimensions = resolved.livePhotoMovieDimensions
    let fastEnabled: Bool = resolved.isFastCapturePrioritizationEnabled
    let proxySize: CMVideoDimensions = resolved.deferredPhotoProxyDimensions
    _ = (readiness, all, coordinated, observation, flash, prepared, preparedArray, monitoring, scenes, live, liveCodecs, zsl)
    _ = (responsive, fast, movieURL, liveCodec, range, movieSize, fastEnabled, proxySize)
}

/// The deprecated members (AVCapturePhotoOutput.h, iOS 10-16); compiled, never called.
@available(*, deprecated)
func spellAVCapturePhotoOutputDeprecated(_ output: AVCapturePhotoOutput, settings: AVCapturePhotoSettings) {
    output.isHighResolutionCaptureEnabled = true
    settings.isHighResolutionPhotoEnabled = true
    let flags: (Bool, Bool) = (output.isHighResolutionCaptureEnabled, settings.isHighResolutionPhotoEnabled)
    _ = flags
}

/// AVCaptureStillImageOutput.h; compiled, never called.
func spellAVCaptureStillImageOutput(_ session: AVCaptureSession) {
    let still = AVCaptureStillImageOutput()
    still.outputSettings = [AVVideoCodecKey: AVVideoCodecType.jpeg]
    let settings: [String: Any]! = still.outputSettings
    let formats: [NSNumber] = still.availableImageDataCVPixelFormatTypes
    let codecs: [AVVideoCodecType] = still.availableImageDataCodecTypes
    let capturing: Bool = still.isCapturingStillImage
    still.isHighResolutionStillImageOutputEnabled = true
    still.automaticallyEnablesStillImageStabilizationWhenAvailable = false
    let stabilization: (Bool, Bool, Bool, Bool) = (
        still.isHighResolutionStillImageOutputEnabled, still.isStillImageStabilizationSupported,
        still.automaticallyEnablesStillImageStabilizationWhenAvailable, still.isStillImageStabilizationActive
    )
    if let connection = still.connection(with: .video) {
        still.captureStillImageAsynchronously(from: connection) { sampleBuffer, error in
            guard let sampleBuffer, error == nil else { return }
            let data: Data? = AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(sampleBuffer)
            _ = data
        }
    }
    let observation: NSKeyValueObservation = still.observe(\.isCapturingStillImage, options: [.new]) { _, _ in }
    _ = (settings, formats, codecs, capturing, stabilization, observation, session.canAddOutput(still))
}

@Suite("AVCapturePhotoOutput readiness spelling")
struct AVCapturePhotoOutputReadinessSpellingTests {
    @Test("raw values of the readiness cases are Apple's; an output outside a session is not running")
    func readinessValues() {
        #expect(AVCapturePhotoOutput.CaptureReadiness.sessionNotRunning.rawValue == 0)
        #expect(AVCapturePhotoOutput.CaptureReadiness.notReadyWaitingForProcessing.rawValue == 4)
        let output = AVCapturePhotoOutput()
        #expect(output.captureReadiness == .sessionNotRunning)
        #expect(AVCapturePhotoOutputReadinessCoordinator(photoOutput: output).captureReadiness == .sessionNotRunning)
        #expect(AVCaptureStillImageOutput().outputSettings[AVVideoCodecKey] as? AVVideoCodecType == .jpeg)
    }
}

/// Bracketed capture (AVCapturePhotoOutput.h, AVCaptureStillImageOutput.h), answered as
/// unsupported; compiled, never called.
func spellBracketedCapture(_ output: AVCapturePhotoOutput, still: AVCaptureStillImageOutput, connection: AVCaptureConnection) {
    let manual: AVCaptureManualExposureBracketedStillImageSettings = .manualExposureSettings(
        exposureDuration: CMTime(value: 1, timescale: 100), iso: 100)
    let auto: AVCaptureAutoExposureBracketedStillImageSettings = .autoExposureSettings(exposureTargetBias: -1)
    let values: (CMTime, Float, Float) = (manual.exposureDuration, manual.iso, auto.exposureTargetBias)
    let bracket = AVCapturePhotoBracketSettings(
        rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg], bracketedSettings: [manual, auto])
    bracket.isLensStabilizationEnabled = false
    let settings: [AVCaptureBracketedStillImageSettings] = bracket.bracketedSettings
    let counts: (Int, Int, Bool, Bool) = (
        output.maxBracketedCapturePhotoCount, still.maxBracketedCaptureStillImageCount,
        output.isLensStabilizationDuringBracketedCaptureSupported, still.isLensStabilizationDuringBracketedCaptureSupported
    )
    still.isLensStabilizationDuringBracketedCaptureEnabled = false
    still.prepareToCaptureStillImageBracket(from: connection, withSettingsArray: settings) { prepared, error in _ = (prepared, error) }
    still.captureStillImageBracketAsynchronously(from: connection, withSettingsArray: settings) { buffer, setting, error in
        _ = (buffer, setting, error)
    }
    _ = (values, counts, still.isLensStabilizationDuringBracketedCaptureEnabled)
}
