// AVError.h and Apple's Swift overlay for it, spelled as iOS code spells them.
import AVFoundation
import Foundation
import Testing

/// Touches every declaration of AVError.h; compiled, never called.
func spellAVError(_ error: Error, device: AVCaptureDevice) {
    let domain: String = AVFoundationErrorDomain
    let keys: [String] = [
        AVErrorDeviceKey, AVErrorTimeKey, AVErrorFileSizeKey, AVErrorPIDKey,
        AVErrorRecordingSuccessfullyFinishedKey, AVErrorMediaTypeKey, AVErrorMediaSubTypeKey,
        AVErrorPresentationTimeStampKey, AVErrorPersistentTrackIDKey, AVErrorFileTypeKey,
    ]
    _ = (domain, keys)
    guard let avError = error as? AVError else { return }
    let code: AVError.Code = avError.code
    let raw: Int = code.rawValue
    let info: [String: Any] = avError.userInfo
    let nsError = avError as NSError
    let wrapped: NSError = avError._nsError
    let rebuilt = AVError(_nsError: wrapped)
    let made = AVError(.deviceWasDisconnected, userInfo: [AVErrorDeviceKey: device])
    let typed: (AVCaptureDevice?, CMTime?, Int64?, Int?, Bool?, AVMediaType?, [Int]?, CMTime?, CMPersistentTrackID?, AVFileType?) = (
        avError.device, avError.time, avError.fileSize, avError.processID, avError.recordingSuccessfullyFinished,
        avError.mediaType, avError.mediaSubtypes, avError.presentationTimeStamp, avError.persistentTrackID, avError.fileType)
    _ = (raw, info, nsError, rebuilt, made, typed, AVError.errorDomain, avError.errorCode, avError.errorUserInfo)
    _ = Set([avError, made])
    switch avError.code {
    case .unknown, .outOfMemory, .sessionNotRunning, .deviceAlreadyUsedByAnotherSession, .noDataCaptured,
        .sessionConfigurationChanged, .diskFull, .deviceWasDisconnected, .mediaChanged, .maximumDurationReached,
        .maximumFileSizeReached, .mediaDiscontinuity, .maximumNumberOfSamplesForFileFormatReached,
        .deviceNotConnected, .deviceInUseByAnotherApplication, .deviceLockedForConfigurationByAnotherProcess,
        .sessionWasInterrupted, .mediaServicesWereReset, .exportFailed, .decodeFailed, .invalidSourceMedia,
        .fileAlreadyExists, .compositionTrackSegmentsNotContiguous, .invalidCompositionTrackSegmentDuration,
        .invalidCompositionTrackSegmentSourceStartTime, .invalidCompositionTrackSegmentSourceDuration,
        .fileFormatNotRecognized, .fileFailedToParse, .maximumStillImageCaptureRequestsExceeded,
        .contentIsProtected, .noImageAtTime, .decoderNotFound, .encoderNotFound, .contentIsNotAuthorized,
        .applicationIsNotAuthorized, .operationNotSupportedForAsset, .decoderTemporarilyUnavailable,
        .encoderTemporarilyUnavailable, .invalidVideoComposition, .referenceForbiddenByReferencePolicy,
        .invalidOutputURLPathExtension, .screenCaptureFailed, .displayWasDisabled, .torchLevelUnavailable,
        .operationInterrupted, .incompatibleAsset, .failedToLoadMediaData, .serverIncorrectlyConfigured,
        .applicationIsNotAuthorizedToUseDevice, .failedToParse, .fileTypeDoesNotSupportSampleReferences,
        .undecodableMediaData, .airPlayControllerRequiresInternet, .airPlayReceiverRequiresInternet,
        .videoCompositorFailed, .recordingAlreadyInProgress, .createContentKeyRequestFailed,
        .unsupportedOutputSettings, .operationNotAllowed, .contentIsUnavailable, .formatUnsupported,
        .malformedDepth, .contentNotUpdated, .noLongerPlayable, .noCompatibleAlternatesForExternalDisplay,
        .noSourceTrack, .externalPlaybackNotSupportedForAsset, .operationNotSupportedForPreset,
        .sessionHardwareCostOverage, .unsupportedDeviceActiveFormat, .incorrectlyConfigured,
        .segmentStartedWithNonSyncSample, .rosettaNotInstalled, .operationCancelled, .contentKeyRequestCancelled,
        .invalidSampleCursor, .failedToLoadSampleData, .airPlayReceiverTemporarilyUnavailable, .encodeFailed,
        .sandboxExtensionDenied, .toneMappingFailed, .mediaExtensionDisabled, .mediaExtensionConflict:
        break
    default:
        break  // AVError.Code.deviceIsNotAvailableInBackground, deprecated since iOS 9
    }
    let statics: [AVError.Code] = [
        AVError.unknown, AVError.deviceWasDisconnected, AVError.mediaServicesWereReset, AVError.sessionWasInterrupted,
        AVError.diskFull, AVError.fileAlreadyExists, AVError.sessionHardwareCostOverage, AVError.torchLevelUnavailable,
    ]
    _ = statics
    do { throw avError } catch AVError.mediaServicesWereReset {
    } catch let error as AVError where error.code == .deviceWasDisconnected {
    } catch {}
}

@Suite("AVError spelling")
struct AVErrorSpellingTests {
    @Test("an AVError bridges to NSError in AVFoundationErrorDomain with Apple's raw code")
    func bridgesToNSError() {
        let error = AVError(.deviceWasDisconnected, userInfo: [NSLocalizedDescriptionKey: "gone"])
        #expect(AVError.errorDomain == "AVFoundationErrorDomain")
        #expect(error.code == .deviceWasDisconnected && error.errorCode == -11808)
        let ns = error as NSError
        #expect(ns.domain == AVFoundationErrorDomain && ns.code == -11808 && ns.localizedDescription == "gone")
        let boxed: Any = error
        #expect((boxed as? NSError)?.code == -11808)
        #expect(error == AVError(_nsError: ns))
    }

    @Test("an NSError of the domain casts to AVError; another domain does not")
    func nsErrorCastsToAVError() {
        let inDomain: Any = NSError(domain: AVFoundationErrorDomain, code: -11819)
        let elsewhere: Any = NSError(domain: NSCocoaErrorDomain, code: -11819)
        #expect((inDomain as? AVError)?.code == .mediaServicesWereReset)
        #expect(elsewhere as? AVError == nil)
    }

    @Test("catch AVError.code matches by code")
    func catchByCode() {
        var matched = ""
        do { throw AVError(.diskFull) } catch AVError.fileAlreadyExists {
            matched = "exists"
        } catch AVError.diskFull {
            matched = "full"
        } catch {}
        #expect(matched == "full")
    }

    @Test("raw values match AVError.h", arguments: [
        (AVError.Code.unknown, -11800), (.sessionNotRunning, -11803), (.deviceWasDisconnected, -11808),
        (.deviceNotConnected, -11814), (.mediaServicesWereReset, -11819), (.fileAlreadyExists, -11823),
        (.torchLevelUnavailable, -11846), (.applicationIsNotAuthorizedToUseDevice, -11852),
        (.recordingAlreadyInProgress, -11859), (.sessionHardwareCostOverage, -11872), (.sandboxExtensionDenied, -11884),
    ])
    func rawValues(code: AVError.Code, raw: Int) {
        #expect(code.rawValue == raw)
        #expect(AVError.Code(rawValue: raw) == code)
    }

    @Test("the typed user-info accessors read Apple's keys")
    func typedUserInfo() {
        let error = AVError(.maximumDurationReached, userInfo: [
            AVErrorRecordingSuccessfullyFinishedKey: true, AVErrorTimeKey: CMTime(value: 3, timescale: 1),
            AVErrorFileSizeKey: Int64(1234), AVErrorMediaTypeKey: AVMediaType.video.rawValue,
            AVErrorMediaSubTypeKey: [Int(kCVPixelFormatType_32BGRA)], AVErrorFileTypeKey: AVFileType.mov.rawValue,
        ])
        #expect(error.recordingSuccessfullyFinished == true)
        #expect(error.time == CMTime(value: 3, timescale: 1))
        #expect(error.fileSize == 1234)
        #expect(error.mediaType == .video)
        #expect(error.mediaSubtypes == [Int(kCVPixelFormatType_32BGRA)])
        #expect(error.fileType == .mov)
        #expect(error.device == nil && error.processID == nil)
    }
}
