/// AVFoundation's error codes: the cases of AVError.h, with Apple's raw values.
extension AVError {
    /// A code of `AVFoundationErrorDomain` (`AVErrorUnknown` … in Objective-C).
    public enum Code: Int, Sendable, Hashable {
        /// The error type codes of this enum belong to.
        public typealias _ErrorType = AVError
        /// The corresponding C constant is `AVErrorUnknown`.
        case unknown = -11800
        /// The corresponding C constant is `AVErrorOutOfMemory`.
        case outOfMemory = -11801
        /// The corresponding C constant is `AVErrorSessionNotRunning`.
        case sessionNotRunning = -11803
        /// The corresponding C constant is `AVErrorDeviceAlreadyUsedByAnotherSession`.
        case deviceAlreadyUsedByAnotherSession = -11804
        /// The corresponding C constant is `AVErrorNoDataCaptured`.
        case noDataCaptured = -11805
        /// The corresponding C constant is `AVErrorSessionConfigurationChanged`.
        case sessionConfigurationChanged = -11806
        /// The corresponding C constant is `AVErrorDiskFull`.
        case diskFull = -11807
        /// The corresponding C constant is `AVErrorDeviceWasDisconnected`.
        case deviceWasDisconnected = -11808
        /// The corresponding C constant is `AVErrorMediaChanged`.
        case mediaChanged = -11809
        /// The corresponding C constant is `AVErrorMaximumDurationReached`.
        case maximumDurationReached = -11810
        /// The corresponding C constant is `AVErrorMaximumFileSizeReached`.
        case maximumFileSizeReached = -11811
        /// The corresponding C constant is `AVErrorMediaDiscontinuity`.
        case mediaDiscontinuity = -11812
        /// The corresponding C constant is `AVErrorMaximumNumberOfSamplesForFileFormatReached`.
        case maximumNumberOfSamplesForFileFormatReached = -11813
        /// The corresponding C constant is `AVErrorDeviceNotConnected`.
        case deviceNotConnected = -11814
        /// The corresponding C constant is `AVErrorDeviceInUseByAnotherApplication`.
        case deviceInUseByAnotherApplication = -11815
        /// The corresponding C constant is `AVErrorDeviceLockedForConfigurationByAnotherProcess`.
        case deviceLockedForConfigurationByAnotherProcess = -11817
        /// The corresponding C constant is `AVErrorSessionWasInterrupted`.
        case sessionWasInterrupted = -11818
        /// The corresponding C constant is `AVErrorMediaServicesWereReset`.
        case mediaServicesWereReset = -11819
        /// The corresponding C constant is `AVErrorExportFailed`.
        case exportFailed = -11820
        /// The corresponding C constant is `AVErrorDecodeFailed`.
        case decodeFailed = -11821
        /// The corresponding C constant is `AVErrorInvalidSourceMedia`.
        case invalidSourceMedia = -11822
        /// The corresponding C constant is `AVErrorFileAlreadyExists`.
        case fileAlreadyExists = -11823
        /// The corresponding C constant is `AVErrorCompositionTrackSegmentsNotContiguous`.
        case compositionTrackSegmentsNotContiguous = -11824
        /// The corresponding C constant is `AVErrorInvalidCompositionTrackSegmentDuration`.
        case invalidCompositionTrackSegmentDuration = -11825
        /// The corresponding C constant is `AVErrorInvalidCompositionTrackSegmentSourceStartTime`.
        case invalidCompositionTrackSegmentSourceStartTime = -11826
        /// The corresponding C constant is `AVErrorInvalidCompositionTrackSegmentSourceDuration`.
        case invalidCompositionTrackSegmentSourceDuration = -11827
        /// The corresponding C constant is `AVErrorFileFormatNotRecognized`.
        case fileFormatNotRecognized = -11828
        /// The corresponding C constant is `AVErrorFileFailedToParse`.
        case fileFailedToParse = -11829
        /// The corresponding C constant is `AVErrorMaximumStillImageCaptureRequestsExceeded`.
        case maximumStillImageCaptureRequestsExceeded = -11830
        /// The corresponding C constant is `AVErrorContentIsProtected`.
        case contentIsProtected = -11831
        /// The corresponding C constant is `AVErrorNoImageAtTime`.
        case noImageAtTime = -11832
        /// The corresponding C constant is `AVErrorDecoderNotFound`.
        case decoderNotFound = -11833
        /// The corresponding C constant is `AVErrorEncoderNotFound`.
        case encoderNotFound = -11834
        /// The corresponding C constant is `AVErrorContentIsNotAuthorized`.
        case contentIsNotAuthorized = -11835
        /// The corresponding C constant is `AVErrorApplicationIsNotAuthorized`.
        case applicationIsNotAuthorized = -11836
        @available(*, deprecated, message: "AVCaptureSession no longer produces an AVCaptureSessionRuntimeErrorNotification with this error. See AVCaptureSessionInterruptionReasonVideoDeviceNotAvailableInBackground.")
        /// The corresponding C constant is `AVErrorDeviceIsNotAvailableInBackground`.
        case deviceIsNotAvailableInBackground = -11837
        /// The corresponding C constant is `AVErrorOperationNotSupportedForAsset`.
        case operationNotSupportedForAsset = -11838
        /// The corresponding C constant is `AVErrorDecoderTemporarilyUnavailable`.
        case decoderTemporarilyUnavailable = -11839
        /// The corresponding C constant is `AVErrorEncoderTemporarilyUnavailable`.
        case encoderTemporarilyUnavailable = -11840
        /// The corresponding C constant is `AVErrorInvalidVideoComposition`.
        case invalidVideoComposition = -11841
        /// The corresponding C constant is `AVErrorReferenceForbiddenByReferencePolicy`.
        case referenceForbiddenByReferencePolicy = -11842
        /// The corresponding C constant is `AVErrorInvalidOutputURLPathExtension`.
        case invalidOutputURLPathExtension = -11843
        /// The corresponding C constant is `AVErrorScreenCaptureFailed`.
        case screenCaptureFailed = -11844
        /// The corresponding C constant is `AVErrorDisplayWasDisabled`.
        case displayWasDisabled = -11845
        /// The corresponding C constant is `AVErrorTorchLevelUnavailable`.
        case torchLevelUnavailable = -11846
        /// The corresponding C constant is `AVErrorOperationInterrupted`.
        case operationInterrupted = -11847
        /// The corresponding C constant is `AVErrorIncompatibleAsset`.
        case incompatibleAsset = -11848
        /// The corresponding C constant is `AVErrorFailedToLoadMediaData`.
        case failedToLoadMediaData = -11849
        /// The corresponding C constant is `AVErrorServerIncorrectlyConfigured`.
        case serverIncorrectlyConfigured = -11850
        /// The corresponding C constant is `AVErrorApplicationIsNotAuthorizedToUseDevice`.
        case applicationIsNotAuthorizedToUseDevice = -11852
        /// The corresponding C constant is `AVErrorFailedToParse`.
        case failedToParse = -11853
        /// The corresponding C constant is `AVErrorFileTypeDoesNotSupportSampleReferences`.
        case fileTypeDoesNotSupportSampleReferences = -11854
        /// The corresponding C constant is `AVErrorUndecodableMediaData`.
        case undecodableMediaData = -11855
        /// The corresponding C constant is `AVErrorAirPlayControllerRequiresInternet`.
        case airPlayControllerRequiresInternet = -11856
        /// The corresponding C constant is `AVErrorAirPlayReceiverRequiresInternet`.
        case airPlayReceiverRequiresInternet = -11857
        /// The corresponding C constant is `AVErrorVideoCompositorFailed`.
        case videoCompositorFailed = -11858
        /// The corresponding C constant is `AVErrorRecordingAlreadyInProgress`.
        case recordingAlreadyInProgress = -11859
        /// The corresponding C constant is `AVErrorCreateContentKeyRequestFailed`.
        case createContentKeyRequestFailed = -11860
        /// The corresponding C constant is `AVErrorUnsupportedOutputSettings`.
        case unsupportedOutputSettings = -11861
        /// The corresponding C constant is `AVErrorOperationNotAllowed`.
        case operationNotAllowed = -11862
        /// The corresponding C constant is `AVErrorContentIsUnavailable`.
        case contentIsUnavailable = -11863
        /// The corresponding C constant is `AVErrorFormatUnsupported`.
        case formatUnsupported = -11864
        /// The corresponding C constant is `AVErrorMalformedDepth`.
        case malformedDepth = -11865
        /// The corresponding C constant is `AVErrorContentNotUpdated`.
        case contentNotUpdated = -11866
        /// The corresponding C constant is `AVErrorNoLongerPlayable`.
        case noLongerPlayable = -11867
        /// The corresponding C constant is `AVErrorNoCompatibleAlternatesForExternalDisplay`.
        case noCompatibleAlternatesForExternalDisplay = -11868
        /// The corresponding C constant is `AVErrorNoSourceTrack`.
        case noSourceTrack = -11869
        /// The corresponding C constant is `AVErrorExternalPlaybackNotSupportedForAsset`.
        case externalPlaybackNotSupportedForAsset = -11870
        /// The corresponding C constant is `AVErrorOperationNotSupportedForPreset`.
        case operationNotSupportedForPreset = -11871
        /// The corresponding C constant is `AVErrorSessionHardwareCostOverage`.
        case sessionHardwareCostOverage = -11872
        /// The corresponding C constant is `AVErrorUnsupportedDeviceActiveFormat`.
        case unsupportedDeviceActiveFormat = -11873
        /// The corresponding C constant is `AVErrorIncorrectlyConfigured`.
        case incorrectlyConfigured = -11875
        /// The corresponding C constant is `AVErrorSegmentStartedWithNonSyncSample`.
        case segmentStartedWithNonSyncSample = -11876
        /// The corresponding C constant is `AVErrorRosettaNotInstalled`.
        case rosettaNotInstalled = -11877
        /// The corresponding C constant is `AVErrorOperationCancelled`.
        case operationCancelled = -11878
        /// The corresponding C constant is `AVErrorContentKeyRequestCancelled`.
        case contentKeyRequestCancelled = -11879
        /// The corresponding C constant is `AVErrorInvalidSampleCursor`.
        case invalidSampleCursor = -11880
        /// The corresponding C constant is `AVErrorFailedToLoadSampleData`.
        case failedToLoadSampleData = -11881
        /// The corresponding C constant is `AVErrorAirPlayReceiverTemporarilyUnavailable`.
        case airPlayReceiverTemporarilyUnavailable = -11882
        /// The corresponding C constant is `AVErrorEncodeFailed`.
        case encodeFailed = -11883
        /// The corresponding C constant is `AVErrorSandboxExtensionDenied`.
        case sandboxExtensionDenied = -11884
        /// The corresponding C constant is `AVErrorToneMappingFailed`.
        case toneMappingFailed = -11885
        /// The corresponding C constant is `AVErrorMediaExtensionDisabled`.
        case mediaExtensionDisabled = -11886
        /// The corresponding C constant is `AVErrorMediaExtensionConflict`.
        case mediaExtensionConflict = -11887

        /// Whether `error` is an `AVError` with this code, so `catch AVError.diskFull` works.
        public static func ~= (match: Code, error: any Error) -> Bool {
            guard let error = error as? AVError else { return false }
            return error.code == match
        }
    }
    /// `AVError.Code.unknown`.
    public static var unknown: Code { .unknown }
    /// `AVError.Code.outOfMemory`.
    public static var outOfMemory: Code { .outOfMemory }
    /// `AVError.Code.sessionNotRunning`.
    public static var sessionNotRunning: Code { .sessionNotRunning }
    /// `AVError.Code.deviceAlreadyUsedByAnotherSession`.
    public static var deviceAlreadyUsedByAnotherSession: Code { .deviceAlreadyUsedByAnotherSession }
    /// `AVError.Code.noDataCaptured`.
    public static var noDataCaptured: Code { .noDataCaptured }
    /// `AVError.Code.sessionConfigurationChanged`.
    public static var sessionConfigurationChanged: Code { .sessionConfigurationChanged }
    /// `AVError.Code.diskFull`.
    public static var diskFull: Code { .diskFull }
    /// `AVError.Code.deviceWasDisconnected`.
    public static var deviceWasDisconnected: Code { .deviceWasDisconnected }
    /// `AVError.Code.mediaChanged`.
    public static var mediaChanged: Code { .mediaChanged }
    /// `AVError.Code.maximumDurationReached`.
    public static var maximumDurationReached: Code { .maximumDurationReached }
    /// `AVError.Code.maximumFileSizeReached`.
    public static var maximumFileSizeReached: Code { .maximumFileSizeReached }
    /// `AVError.Code.mediaDiscontinuity`.
    public static var mediaDiscontinuity: Code { .mediaDiscontinuity }
    /// `AVError.Code.maximumNumberOfSamplesForFileFormatReached`.
    public static var maximumNumberOfSamplesForFileFormatReached: Code { .maximumNumberOfSamplesForFileFormatReached }
    /// `AVError.Code.deviceNotConnected`.
    public static var deviceNotConnected: Code { .deviceNotConnected }
    /// `AVError.Code.deviceInUseByAnotherApplication`.
    public static var deviceInUseByAnotherApplication: Code { .deviceInUseByAnotherApplication }
    /// `AVError.Code.deviceLockedForConfigurationByAnotherProcess`.
    public static var deviceLockedForConfigurationByAnotherProcess: Code { .deviceLockedForConfigurationByAnotherProcess }
    /// `AVError.Code.sessionWasInterrupted`.
    public static var sessionWasInterrupted: Code { .sessionWasInterrupted }
    /// `AVError.Code.mediaServicesWereReset`.
    public static var mediaServicesWereReset: Code { .mediaServicesWereReset }
    /// `AVError.Code.exportFailed`.
    public static var exportFailed: Code { .exportFailed }
    /// `AVError.Code.decodeFailed`.
    public static var decodeFailed: Code { .decodeFailed }
    /// `AVError.Code.invalidSourceMedia`.
    public static var invalidSourceMedia: Code { .invalidSourceMedia }
    /// `AVError.Code.fileAlreadyExists`.
    public static var fileAlreadyExists: Code { .fileAlreadyExists }
    /// `AVError.Code.compositionTrackSegmentsNotContiguous`.
    public static var compositionTrackSegmentsNotContiguous: Code { .compositionTrackSegmentsNotContiguous }
    /// `AVError.Code.invalidCompositionTrackSegmentDuration`.
    public static var invalidCompositionTrackSegmentDuration: Code { .invalidCompositionTrackSegmentDuration }
    /// `AVError.Code.invalidCompositionTrackSegmentSourceStartTime`.
    public static var invalidCompositionTrackSegmentSourceStartTime: Code { .invalidCompositionTrackSegmentSourceStartTime }
    /// `AVError.Code.invalidCompositionTrackSegmentSourceDuration`.
    public static var invalidCompositionTrackSegmentSourceDuration: Code { .invalidCompositionTrackSegmentSourceDuration }
    /// `AVError.Code.fileFormatNotRecognized`.
    public static var fileFormatNotRecognized: Code { .fileFormatNotRecognized }
    /// `AVError.Code.fileFailedToParse`.
    public static var fileFailedToParse: Code { .fileFailedToParse }
    /// `AVError.Code.maximumStillImageCaptureRequestsExceeded`.
    public static var maximumStillImageCaptureRequestsExceeded: Code { .maximumStillImageCaptureRequestsExceeded }
    /// `AVError.Code.contentIsProtected`.
    public static var contentIsProtected: Code { .contentIsProtected }
    /// `AVError.Code.noImageAtTime`.
    public static var noImageAtTime: Code { .noImageAtTime }
    /// `AVError.Code.decoderNotFound`.
    public static var decoderNotFound: Code { .decoderNotFound }
    /// `AVError.Code.encoderNotFound`.
    public static var encoderNotFound: Code { .encoderNotFound }
    /// `AVError.Code.contentIsNotAuthorized`.
    public static var contentIsNotAuthorized: Code { .contentIsNotAuthorized }
    /// `AVError.Code.applicationIsNotAuthorized`.
    public static var applicationIsNotAuthorized: Code { .applicationIsNotAuthorized }
    @available(*, deprecated, message: "AVCaptureSession no longer produces an AVCaptureSessionRuntimeErrorNotification with this error. See AVCaptureSessionInterruptionReasonVideoDeviceNotAvailableInBackground.")
    /// `AVError.Code.deviceIsNotAvailableInBackground`.
    public static var deviceIsNotAvailableInBackground: Code { .deviceIsNotAvailableInBackground }
    /// `AVError.Code.operationNotSupportedForAsset`.
    public static var operationNotSupportedForAsset: Code { .operationNotSupportedForAsset }
    /// `AVError.Code.decoderTemporarilyUnavailable`.
    public static var decoderTemporarilyUnavailable: Code { .decoderTemporarilyUnavailable }
    /// `AVError.Code.encoderTemporarilyUnavailable`.
    public static var encoderTemporarilyUnavailable: Code { .encoderTemporarilyUnavailable }
    /// `AVError.Code.invalidVideoComposition`.
    public static var invalidVideoComposition: Code { .invalidVideoComposition }
    /// `AVError.Code.referenceForbiddenByReferencePolicy`.
    public static var referenceForbiddenByReferencePolicy: Code { .referenceForbiddenByReferencePolicy }
    /// `AVError.Code.invalidOutputURLPathExtension`.
    public static var invalidOutputURLPathExtension: Code { .invalidOutputURLPathExtension }
    /// `AVError.Code.screenCaptureFailed`.
    public static var screenCaptureFailed: Code { .screenCaptureFailed }
    /// `AVError.Code.displayWasDisabled`.
    public static var displayWasDisabled: Code { .displayWasDisabled }
    /// `AVError.Code.torchLevelUnavailable`.
    public static var torchLevelUnavailable: Code { .torchLevelUnavailable }
    /// `AVError.Code.operationInterrupted`.
    public static var operationInterrupted: Code { .operationInterrupted }
    /// `AVError.Code.incompatibleAsset`.
    public static var incompatibleAsset: Code { .incompatibleAsset }
    /// `AVError.Code.failedToLoadMediaData`.
    public static var failedToLoadMediaData: Code { .failedToLoadMediaData }
    /// `AVError.Code.serverIncorrectlyConfigured`.
    public static var serverIncorrectlyConfigured: Code { .serverIncorrectlyConfigured }
    /// `AVError.Code.applicationIsNotAuthorizedToUseDevice`.
    public static var applicationIsNotAuthorizedToUseDevice: Code { .applicationIsNotAuthorizedToUseDevice }
    /// `AVError.Code.failedToParse`.
    public static var failedToParse: Code { .failedToParse }
    /// `AVError.Code.fileTypeDoesNotSupportSampleReferences`.
    public static var fileTypeDoesNotSupportSampleReferences: Code { .fileTypeDoesNotSupportSampleReferences }
    /// `AVError.Code.undecodableMediaData`.
    public static var undecodableMediaData: Code { .undecodableMediaData }
    /// `AVError.Code.airPlayControllerRequiresInternet`.
    public static var airPlayControllerRequiresInternet: Code { .airPlayControllerRequiresInternet }
    /// `AVError.Code.airPlayReceiverRequiresInternet`.
    public static var airPlayReceiverRequiresInternet: Code { .airPlayReceiverRequiresInternet }
    /// `AVError.Code.videoCompositorFailed`.
    public static var videoCompositorFailed: Code { .videoCompositorFailed }
    /// `AVError.Code.recordingAlreadyInProgress`.
    public static var recordingAlreadyInProgress: Code { .recordingAlreadyInProgress }
    /// `AVError.Code.createContentKeyRequestFailed`.
    public static var createContentKeyRequestFailed: Code { .createContentKeyRequestFailed }
    /// `AVError.Code.unsupportedOutputSettings`.
    public static var unsupportedOutputSettings: Code { .unsupportedOutputSettings }
    /// `AVError.Code.operationNotAllowed`.
    public static var operationNotAllowed: Code { .operationNotAllowed }
    /// `AVError.Code.contentIsUnavailable`.
    public static var contentIsUnavailable: Code { .contentIsUnavailable }
    /// `AVError.Code.formatUnsupported`.
    public static var formatUnsupported: Code { .formatUnsupported }
    /// `AVError.Code.malformedDepth`.
    public static var malformedDepth: Code { .malformedDepth }
    /// `AVError.Code.contentNotUpdated`.
    public static var contentNotUpdated: Code { .contentNotUpdated }
    /// `AVError.Code.noLongerPlayable`.
    public static var noLongerPlayable: Code { .noLongerPlayable }
    /// `AVError.Code.noCompatibleAlternatesForExternalDisplay`.
    public static var noCompatibleAlternatesForExternalDisplay: Code { .noCompatibleAlternatesForExternalDisplay }
    /// `AVError.Code.noSourceTrack`.
    public static var noSourceTrack: Code { .noSourceTrack }
    /// `AVError.Code.externalPlaybackNotSupportedForAsset`.
    public static var externalPlaybackNotSupportedForAsset: Code { .externalPlaybackNotSupportedForAsset }
    /// `AVError.Code.operationNotSupportedForPreset`.
    public static var operationNotSupportedForPreset: Code { .operationNotSupportedForPreset }
    /// `AVError.Code.sessionHardwareCostOverage`.
    public static var sessionHardwareCostOverage: Code { .sessionHardwareCostOverage }
    /// `AVError.Code.unsupportedDeviceActiveFormat`.
    public static var unsupportedDeviceActiveFormat: Code { .unsupportedDeviceActiveFormat }
    /// `AVError.Code.incorrectlyConfigured`.
    public static var incorrectlyConfigured: Code { .incorrectlyConfigured }
    /// `AVError.Code.segmentStartedWithNonSyncSample`.
    public static var segmentStartedWithNonSyncSample: Code { .segmentStartedWithNonSyncSample }
    /// `AVError.Code.rosettaNotInstalled`.
    public static var rosettaNotInstalled: Code { .rosettaNotInstalled }
    /// `AVError.Code.operationCancelled`.
    public static var operationCancelled: Code { .operationCancelled }
    /// `AVError.Code.contentKeyRequestCancelled`.
    public static var contentKeyRequestCancelled: Code { .contentKeyRequestCancelled }
    /// `AVError.Code.invalidSampleCursor`.
    public static var invalidSampleCursor: Code { .invalidSampleCursor }
    /// `AVError.Code.failedToLoadSampleData`.
    public static var failedToLoadSampleData: Code { .failedToLoadSampleData }
    /// `AVError.Code.airPlayReceiverTemporarilyUnavailable`.
    public static var airPlayReceiverTemporarilyUnavailable: Code { .airPlayReceiverTemporarilyUnavailable }
    /// `AVError.Code.encodeFailed`.
    public static var encodeFailed: Code { .encodeFailed }
    /// `AVError.Code.sandboxExtensionDenied`.
    public static var sandboxExtensionDenied: Code { .sandboxExtensionDenied }
    /// `AVError.Code.toneMappingFailed`.
    public static var toneMappingFailed: Code { .toneMappingFailed }
    /// `AVError.Code.mediaExtensionDisabled`.
    public static var mediaExtensionDisabled: Code { .mediaExtensionDisabled }
    /// `AVError.Code.mediaExtensionConflict`.
    public static var mediaExtensionConflict: Code { .mediaExtensionConflict }
}
