import Foundation

/// One exposure of a bracketed capture (AVCaptureStillImageOutput.h): an
/// `AVCaptureAutoExposureBracketedStillImageSettings` or an
/// `AVCaptureManualExposureBracketedStillImageSettings`. `AVCapturePhotoOutput` exposes
/// each photo of an `AVCapturePhotoBracketSettings` with its entry on the simulated
/// cameras; `AVCaptureStillImageOutput` offers no brackets (`maxBracketedCaptureStillImageCount` 0).
open class AVCaptureBracketedStillImageSettings: NSObject, @unchecked Sendable {
    override init() { super.init() }
}

/// A bracket exposure with a fixed duration and ISO.
open class AVCaptureManualExposureBracketedStillImageSettings: AVCaptureBracketedStillImageSettings, @unchecked Sendable {
    private let storedExposureDuration: CMTime
    /// The exposure time.
    open var exposureDuration: CMTime { storedExposureDuration }
    private let storedIso: Float
    /// The ISO.
    open var iso: Float { storedIso }

    init(exposureDuration: CMTime, iso: Float) {
        self.storedExposureDuration = exposureDuration
        self.storedIso = iso
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
    private let storedExposureTargetBias: Float
    /// The bias from the auto-exposure target, in EV.
    open var exposureTargetBias: Float { storedExposureTargetBias }

    /// Settings for an exposure `exposureTargetBias` EV from the auto-exposure target.
    /// (Apple's returns `Self`; subclasses cannot be made here, so it is the class.)
    open class func autoExposureSettings(exposureTargetBias: Float) -> AVCaptureAutoExposureBracketedStillImageSettings {
        AVCaptureAutoExposureBracketedStillImageSettings(exposureTargetBias: exposureTargetBias)
    }

    init(exposureTargetBias: Float) {
        self.storedExposureTargetBias = exposureTargetBias
        super.init()
    }
}

/// Photo settings for a bracketed capture (AVCapturePhotoOutput.h): one photo (raw and/or
/// processed) per entry of `bracketedSettings`, each exposed with its entry's bias or
/// duration and ISO on successive frames. The delegate's `didFinishProcessingPhoto` runs
/// once per photo, with `sequenceCount` and `bracketSettings`.
///
/// As on iOS, the entries must all be of one kind (one to
/// `maxBracketedCapturePhotoCount`), and brackets do not support `flashMode`, a Live
/// Photo movie, its metadata or auto still image stabilization: setting the first two
/// raises `NSInvalidArgumentException`, the others raise at capture.
open class AVCapturePhotoBracketSettings: AVCapturePhotoSettings, @unchecked Sendable {
    private let entries: [AVCaptureBracketedStillImageSettings]
    /// The exposures asked for, in order.
    open var bracketedSettings: [AVCaptureBracketedStillImageSettings] { entries }
    /// Whether the lens is held steady for the bracket (default false). True makes
    /// `capturePhoto(with:delegate:)` raise, as Apple's does where
    /// `isLensStabilizationDuringBracketedCaptureSupported` is false (always, here).
    open var isLensStabilizationEnabled = false

    /// Always `.off`; another mode raises, as brackets do not support flash.
    open override var flashMode: AVCaptureDevice.FlashMode {
        didSet { if flashMode != .off { Self.unsupported("setFlashMode:", "flashMode") } }
    }

    /// Always nil; a URL raises, as brackets do not support Live Photos.
    open override var livePhotoMovieFileURL: URL? {
        didSet { if livePhotoMovieFileURL != nil { Self.unsupported("setLivePhotoMovieFileURL:", "livePhotoMovieFileURL") } }
    }

    private static func unsupported(_ selector: String, _ property: String) -> Never {
        AVCaptureException(
            .invalidArgument, "*** -[AVCapturePhotoBracketSettings \(selector)] AVCapturePhotoBracketSettings do not support \(property)"
        ).raise()
    }

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
        let selector = "photoBracketSettingsWithRawPixelFormatType:rawFileType:processedFormat:processedFileType:bracketedSettings:"
        enforce { try AVCapturePhotoSettings.validate(format: processedFormat, selector: selector) }
        // "An NSInvalidArgumentException is thrown if bracketedSettings is nil, contains zero
        // elements, or mixes and matches different subclasses" (AVCapturePhotoOutput.h).
        func invalid(_ text: String) -> Never {
            AVCaptureException(.invalidArgument, "*** +[AVCapturePhotoBracketSettings \(selector)] \(text)").raise()
        }
        if bracketedSettings.isEmpty { invalid("bracketedSettings must contain at least one element") }
        let kinds = Set(bracketedSettings.map { ObjectIdentifier(type(of: $0)) })
        if kinds.count > 1 {
            invalid("bracketedSettings may not mix AVCaptureAutoExposureBracketedStillImageSettings and AVCaptureManualExposureBracketedStillImageSettings")
        }
        entries = bracketedSettings
        let rawOnly = rawPixelFormatType != 0 && processedFormat == nil
        super.init(
            validFormat: rawOnly ? nil : processedFormat, processedFileType: processedFileType, rawPixelFormatType: rawPixelFormatType,
            rawFileType: rawFileType, rawOnly: rawOnly)
        auxiliary.autoProcessing = false  // Apple's default for brackets
    }
}

extension AVCapturePhotoOutput {
    /// Exposures a bracket may have on a simulated camera: each is a full still, held
    /// until the last is taken (at 12 MP about 18 MB of 4:2:0, plus 24 MB with raw).
    static let simulatedBracketCount = 4
}

extension AVCaptureStillImageOutput {
    var maxBracketedCaptureStillImageCountBacking: Int { 0 }
    var isLensStabilizationDuringBracketedCaptureSupportedBacking: Bool { false }

    var isLensStabilizationDuringBracketedCaptureEnabledBacking: Bool {
        get { false }
        set {
            if newValue {
                AVCaptureException(.invalidArgument, selectorReason(
                    "AVCaptureStillImageOutput", "setLensStabilizationDuringBracketedCaptureEnabled:",
                    "lensStabilizationDuringBracketedCaptureSupported is NO")).raise()
            }
        }
    }

    func prepareToCaptureStillImageBracketBacking(
        from connection: AVCaptureConnection, withSettingsArray settings: [AVCaptureBracketedStillImageSettings],
        completionHandler handler: @escaping (Bool, (any Error)?) -> Void
    ) {
        refuseBracket("prepareToCaptureStillImageBracketFromConnection:withSettingsArray:completionHandler:", count: settings.count)
    }

    func captureStillImageBracketAsynchronouslyBacking(
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
