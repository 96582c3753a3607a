import Foundation

/// One exposure of a bracketed capture (AVCaptureStillImageOutput.h). Bracketing is not
/// offered here: `maxBracketedCapturePhotoCount` and `maxBracketedCaptureStillImageCount`
/// are 0, so a bracket of any size raises `NSInvalidArgumentException`, as a request
/// beyond those counts does on iOS.
open class AVCaptureBracketedStillImageSettings: NSObject, @unchecked Sendable {
    override init() { super.init() }
}

/// A bracket exposure with a fixed duration and ISO.
open class AVCaptureManualExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings, @unchecked Sendable {
    /// The exposure time.
    public let exposureDuration: CMTime
    /// The ISO.
    public let iso: Float

    init(exposureDuration: CMTime, iso: Float) {
        self.exposureDuration = exposureDuration
        self.iso = iso
        super.init()
    }

    /// Settings for an exposure of `duration` at `ISO`.
    /// (Apple's returns `Self`; subclasses cannot be made here, so it is the class.)
    open class func manualExposureSettings(exposureDuration duration: CMTime, iso ISO: Float) -> AVCaptureManualExposureBracketedStillImageSettings {
        AVCaptureManualExposureBracketedStillImageSettings(exposureDuration: duration, iso: ISO)
    }
}

/// A bracket exposure offset from auto exposure's target.
open class AVCaptureAutoExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings, @unchecked Sendable {
    /// The bias from the auto-exposure target, in EV.
    public let exposureTargetBias: Float

    /// Settings for an exposure `exposureTargetBias` EV from the auto-exposure target.
    /// (Apple's returns `Self`; subclasses cannot be made here, so it is the class.)
    open class func autoExposureSettings(exposureTargetBias: Float) -> AVCaptureAutoExposureBracketedStillImageSettings {
        AVCaptureAutoExposureBracketedStillImageSettings(exposureTargetBias: exposureTargetBias)
    }

    init(exposureTargetBias: Float) {
        self.exposureTargetBias = exposureTargetBias
        super.init()
    }
}

/// Photo settings for a bracketed capture (AVCapturePhotoOutput.h). Accepted as settings;
/// `capturePhoto(with:delegate:)` raises for them, since the output's
/// `maxBracketedCapturePhotoCount` is 0.
open class AVCapturePhotoBracketSettings: AVCapturePhotoSettings, @unchecked Sendable {
    /// The exposures asked for, in order.
    public let bracketedSettings: [AVCaptureBracketedStillImageSettings]
    /// Whether the lens is stabilized during the bracket (default false); true raises at
    /// capture, since `isLensStabilizationDuringBracketedCaptureSupported` is false.
    open var isLensStabilizationEnabled = false

    /// Bracket settings with raw and processed formats (0 and nil as in the photo settings).
    public convenience init(
        rawPixelFormatType: OSType, processedFormat: [String: Any]?, bracketedSettings: [AVCaptureBracketedStillImageSettings]
    ) {
        self.init(
            rawPixelFormatType: rawPixelFormatType, rawFileType: nil, processedFormat: processedFormat, processedFileType: nil,
            bracketedSettings: bracketedSettings)
    }

    /// Bracket settings with file types.
    public init(
        rawPixelFormatType: OSType, rawFileType: AVFileType?, processedFormat: [String: Any]?, processedFileType: AVFileType?,
        bracketedSettings: [AVCaptureBracketedStillImageSettings]
    ) {
        enforce { try AVCapturePhotoSettings.validate(format: processedFormat, selector: "photoBracketSettingsWithRawPixelFormatType:processedFormat:bracketedSettings:") }
        self.bracketedSettings = bracketedSettings
        let rawOnly = rawPixelFormatType != 0 && processedFormat == nil
        super.init(
            validFormat: rawOnly ? nil : processedFormat, processedFileType: processedFileType, rawPixelFormatType: rawPixelFormatType,
            rawFileType: rawFileType, rawOnly: rawOnly)
        auxiliary.autoProcessing = false  // Apple's default for brackets
    }
}

extension AVCapturePhotoOutput {
    /// The most exposures a bracketed capture may take: 0, no bracketing here.
    public var maxBracketedCapturePhotoCount: Int { 0 }
    /// Whether the lens can be stabilized during a bracket: false.
    public var isLensStabilizationDuringBracketedCaptureSupported: Bool { false }
}

extension AVCaptureStillImageOutput {
    /// The most exposures a bracketed capture may take: 0, no bracketing here.
    public var maxBracketedCaptureStillImageCount: Int { 0 }
    /// Whether the lens can be stabilized during a bracket: false.
    public var isLensStabilizationDuringBracketedCaptureSupported: Bool { false }

    /// Always false; true raises `NSInvalidArgumentException`, as without support.
    public var isLensStabilizationDuringBracketedCaptureEnabled: Bool {
        get { false }
        set {
            if newValue {
                AVCaptureException(.invalidArgument, selectorReason(
                    "AVCaptureStillImageOutput", "setLensStabilizationDuringBracketedCaptureEnabled:",
                    "lensStabilizationDuringBracketedCaptureSupported is NO")).raise()
            }
        }
    }

    /// Prepares for a bracket: raises `NSInvalidArgumentException`, since no bracket may
    /// have more than `maxBracketedCaptureStillImageCount` (0) exposures.
    public func prepareToCaptureStillImageBracket(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (Bool, (any Error)?) -> Void
    ) {
        refuseBracket("prepareToCaptureStillImageBracketFromConnection:withSettingsArray:completionHandler:", count: settings.count)
    }

    /// Takes a bracket: raises `NSInvalidArgumentException`, as `prepareToCaptureStillImageBracket` does.
    public func captureStillImageBracketAsynchronously(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (CMSampleBuffer?, AVCaptureBracketedStillImageSettings?, (any Error)?) -> Void
    ) {
        refuseBracket("captureStillImageBracketAsynchronouslyFromConnection:withSettingsArray:completionHandler:", count: settings.count)
    }

    private func refuseBracket(_ selector: String, count: Int) -> Never {
        AVCaptureException(.invalidArgument, selectorReason(
            "AVCaptureStillImageOutput", selector,
            "settings count (\(count)) must be between 1 and maxBracketedCaptureStillImageCount (\(maxBracketedCaptureStillImageCount))")).raise()
    }
}
