import Foundation
import Synchronization

/// Delivers every captured frame to a delegate as a `CMSampleBuffer`.
///
/// Threads: the delegate is called on `sampleBufferCallbackQueue`, one call at a time, in
/// order, never with a lock of OpenCapture's held. Once `stopRunning()` or
/// `removeOutput(_:)` returns (called from elsewhere), no call of that run is in progress.
open class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let settings = Mutex<Settings>(Settings())
    /// Observers of the output (see `AVCaptureOutput+KeyValueObserving.swift`).
    let videoDataKeyValueObservers = KeyValueObserverRegistry(label: "videoDataOutput")
    /// The pools converted frames come from, kept across runs (see `OutputPools`).
    let pools = OutputPools()
    /// The deprecated `minFrameDuration` set before the output had a video connection.
    let pendingMinFrameDuration = Mutex(CMTime.invalid)

    private struct Settings {
        /// `nil` means the default for the session's preset.
        var pixelFormat: PixelFormat?
        var explicitSettings: [String: any Sendable]?
        var alwaysDiscardsLateVideoFrames = true
        weak var delegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?
        var queue: DispatchQueue?
        var delivery: SampleDelivery?
        /// Width and height asked for with the size keys (landscape or portrait as asked).
        var requestedSize: (width: Int, height: Int)?
        var automaticallyConfiguresOutputBufferDimensions = true
        var deliversPreviewSizedOutputBuffers = false
        var preservesDynamicHDRMetadata = false
    }

    /// The pixel format used when `videoSettings` names none: '420v', as on iOS.
    public static let defaultPixelFormat = kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange

    public override init() { super.init() }

    override func didAdd(_ connection: AVCaptureConnection) { applyPendingMinFrameDuration(to: connection) }

    /// Whether the output can wait for deferred start: true.
    open override var isDeferredStartSupported: Bool { true }

    // MARK: Settings

    /// The output's format: `kCVPixelBufferPixelFormatTypeKey`, and (as since iOS 16)
    /// `kCVPixelBufferWidthKey` with `kCVPixelBufferHeightKey` to receive frames scaled down,
    /// same aspect ratio and orientation, no larger than the frames. `nil` restores the
    /// default, `[:]` asks for the device's native format. An unsupported pixel format or
    /// size raises, as on iOS.
    open var videoSettings: [String: Any]! {
        get {
            let (format, explicit) = settings.withLock { ($0.pixelFormat, $0.explicitSettings) }
            if let explicit, explicit.isEmpty { return [:] }
            var result: [String: Any] = [kCVPixelBufferPixelFormatTypeKey: format?.rawValue ?? Self.defaultPixelFormat]
            if let dimensions = deliveredDimensions {
                result[kCVPixelBufferWidthKey] = Int(dimensions.width)
                result[kCVPixelBufferHeightKey] = Int(dimensions.height)
            }
            return result
        }
        set { enforce { try setVideoSettings(newValue) } }
    }

    /// The checked form of setting `videoSettings` (Linux addition).
    public func setVideoSettings(_ newValue: [String: Any]?) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["videoSettings"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        guard let newValue else {
            // Back to the defaults: the device's format and size (a size asked for before no
            // longer applies).
            settings.withLock {
                $0.pixelFormat = nil
                $0.explicitSettings = nil
                $0.requestedSize = nil
            }
            session?.outputDidChangeSettings(self)
            return
        }
        var format: PixelFormat?
        if let raw = newValue[kCVPixelBufferPixelFormatTypeKey] {
            guard let code = integer(raw), let parsed = PixelFormat(rawValue: OSType(truncatingIfNeeded: code)),
                availableVideoPixelFormatTypes.contains(parsed.rawValue)
            else {
                throw AVCaptureException(
                    .invalidArgument,
                    selectorReason("AVCaptureVideoDataOutput", "setVideoSettings:",
                        "Unsupported pixel format type - use -availableVideoPixelFormatTypes"))
            }
            format = parsed
        }
        for key in newValue.keys where ![kCVPixelBufferPixelFormatTypeKey, kCVPixelBufferWidthKey, kCVPixelBufferHeightKey].contains(key) {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureVideoDataOutput", "setVideoSettings:", "Unsupported key \(key) in videoSettings"))
        }
        var size: (width: Int, height: Int)?
        if newValue[kCVPixelBufferWidthKey] != nil || newValue[kCVPixelBufferHeightKey] != nil {
            let w = integer(newValue[kCVPixelBufferWidthKey]) ?? -1
            let h = integer(newValue[kCVPixelBufferHeightKey]) ?? -1
            if let native = nativeDimensions, !(w == Int(native.width) && h == Int(native.height)) {
                guard Self.canScale(to: (w, h), from: (Int(native.width), Int(native.height))) else {
                    throw AVCaptureException(
                        .invalidArgument,
                        selectorReason("AVCaptureVideoDataOutput", "setVideoSettings:",
                            "Unsupported output dimensions \(w)x\(h) - frames are \(native.width)x\(native.height): ask for a size no larger, with the same aspect ratio and orientation"))
                }
                size = (w, h)
            } else if nativeDimensions == nil {
                guard w > 0, h > 0 else {
                    throw AVCaptureException(
                        .invalidArgument, selectorReason("AVCaptureVideoDataOutput", "setVideoSettings:", "Unsupported output dimensions \(w)x\(h)"))
                }
                size = (w, h)
            }
        }
        var stored: [String: any Sendable] = format.map { [kCVPixelBufferPixelFormatTypeKey: $0.rawValue] } ?? [:]
        if let size {
            stored[kCVPixelBufferWidthKey] = size.width
            stored[kCVPixelBufferHeightKey] = size.height
        }
        settings.withLock {
            $0.pixelFormat = format
            $0.explicitSettings = stored
            $0.requestedSize = size
        }
        session?.outputDidChangeSettings(self)
    }

    /// Pixel formats the output can deliver; follows the connected device's `activeFormat`.
    ///
    /// Always '420v', '420f', 'BGRA', 'y420' and 'f420'; with a 10-bit active format (one
    /// whose `formatDescription.mediaSubType` is 'x420', as iPhones list them) also
    /// `kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange` ('x420') and
    /// `kCVPixelFormatType_420YpCbCr10BiPlanarFullRange` ('xf20'), with real 10-bit samples
    /// from simulated cameras. An output not connected to a camera lists the 8-bit five. No
    /// other `kCVPixelFormatType_` constant is ever listed. If the active format later
    /// changes to an 8-bit one, an output that asked for 'x420' keeps getting 'x420' (Linux
    /// behaviour; the frames are widened from 8 bits where the camera cannot render 10).
    open var availableVideoPixelFormatTypes: [OSType] {
        var types = [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8Planar, kCVPixelFormatType_420YpCbCr8PlanarFullRange,
        ]
        if connectedDevice?.activeFormat.spec.pixelFormat.isTenBit == true {
            types += [kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange]
        }
        return types
    }

    /// The camera of the output's first connection, if any.
    private var connectedDevice: AVCaptureDevice? {
        (connections.first?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device
    }

    /// Codecs the output can compress to: none, it delivers uncompressed frames.
    open var availableVideoCodecTypes: [AVVideoCodecType] { [] }

    /// The pixel format frames are delivered in.
    package var deliveredPixelFormat: PixelFormat {
        settings.withLock { $0.pixelFormat } ?? PixelFormat(rawValue: Self.defaultPixelFormat)!
    }

    /// The size of delivered frames: the size asked for in `videoSettings`, else the
    /// active format's size rotated by the connection.
    var deliveredDimensions: CMVideoDimensions? {
        guard let native = nativeDimensions else { return nil }
        guard let size = scaledSize(forFrameWidth: Int(native.width), height: Int(native.height)) else { return native }
        return CMVideoDimensions(width: Int32(size.width), height: Int32(size.height))
    }

    override var outputCoordinateSize: CGSize? {
        deliveredDimensions.map { CGSize(width: Int($0.width), height: Int($0.height)) }
    }

    /// The active format's size, rotated by the connection.
    private var nativeDimensions: CMVideoDimensions? {
        guard let connection = connections.first,
            let input = connection.inputPorts.first?.input as? AVCaptureDeviceInput
        else { return nil }
        let dims = input.device.activeFormat.formatDescription.dimensions
        let angle = Int(connection.videoRotationAngle)
        return angle == 90 || angle == 270 ? CMVideoDimensions(width: dims.height, height: dims.width) : dims
    }

    /// The size to scale frames of `width`×`height` (after rotation) to, nil to deliver them
    /// as they are: the requested size, turned to the frames' orientation, when it is smaller
    /// with the same aspect ratio (after a format or rotation change it may no longer fit).
    func scaledSize(forFrameWidth width: Int, height: Int) -> (width: Int, height: Int)? {
        FrameConversion.scaledSize(requestedSize, forFrameWidth: width, height: height)
    }

    /// The size asked for with the size keys, as asked.
    var requestedSize: (width: Int, height: Int)? { settings.withLock { $0.requestedSize } }

    /// Apple's rule for output sizes: positive, no larger than the frames, and the same
    /// aspect ratio (to within a pixel of rounding).
    static func canScale(to size: (width: Int, height: Int), from frame: (width: Int, height: Int)) -> Bool {
        guard size.width > 0, size.height > 0, size.width <= frame.width, size.height <= frame.height else { return false }
        return abs(size.width * frame.height - size.height * frame.width) <= max(frame.width, frame.height)
    }

    /// When true (the default), frames that arrive while the delegate is still busy replace
    /// the waiting one, and the replaced frame is reported as late. When false, up to a few
    /// frames wait; they may still be dropped when the buffer pool runs out.
    open var alwaysDiscardsLateVideoFrames: Bool {
        get { settings.withLock { $0.alwaysDiscardsLateVideoFrames } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["alwaysDiscardsLateVideoFrames"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            settings.withLock { $0.alwaysDiscardsLateVideoFrames = newValue }
        }
    }

    /// Whether the output picks buffer sizes itself (default true).
    open var automaticallyConfiguresOutputBufferDimensions: Bool {
        get { settings.withLock { $0.automaticallyConfiguresOutputBufferDimensions } }
        set {
            let observed = KeyValueChange.willChange(self, keys: ["automaticallyConfiguresOutputBufferDimensions"])  // KVO: prior now, after on return
            defer { observed?.didChange() }
            settings.withLock { $0.automaticallyConfiguresOutputBufferDimensions = newValue }
        }
    }

    /// Preview-sized buffers; not supported on Linux, so the value stays false.
    open var deliversPreviewSizedOutputBuffers: Bool {
        get { settings.withLock { $0.deliversPreviewSizedOutputBuffers } }
        set { changingValues("deliversPreviewSizedOutputBuffers") {} }
    }

    /// Whether frames keep their dynamic HDR metadata (HDR10+, Dolby Vision) as a pixel
    /// buffer attachment for an asset writer (iOS 26; default false). Stored only: no camera
    /// here delivers dynamic HDR metadata (HLG formats carry none), so there is nothing to keep.
    open var preservesDynamicHDRMetadata: Bool {
        get { settings.withLock { $0.preservesDynamicHDRMetadata } }
        set { settings.withLock { $0.preservesDynamicHDRMetadata = newValue } }
    }

    // MARK: Delegate

    /// The delegate, held weakly.
    open var sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)? { settings.withLock { $0.delegate } }
    /// The queue the delegate is called on.
    open var sampleBufferCallbackQueue: DispatchQueue? { settings.withLock { $0.queue } }

    /// Sets the delegate and the queue it is called on. Use a serial queue so frames arrive
    /// in order. A delegate without a queue raises, as on iOS.
    open func setSampleBufferDelegate(_ sampleBufferDelegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?, queue sampleBufferCallbackQueue: DispatchQueue?) {
        enforce { try setSampleBufferDelegateChecked(sampleBufferDelegate, queue: sampleBufferCallbackQueue) }
    }

    /// The checked form of `setSampleBufferDelegate(_:queue:)` (Linux addition).
    public func setSampleBufferDelegateChecked(_ delegate: (any AVCaptureVideoDataOutputSampleBufferDelegate)?, queue: DispatchQueue?) throws(AVCaptureException) {
        if delegate != nil && queue == nil {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureVideoDataOutput", "setSampleBufferDelegate:queue:",
                    "sampleBufferCallbackQueue cannot be NULL"))
        }
        // A synchronizer that took the output over gets the frames on its queue instead.
        let deliveryQueue = synchronizerTakeover?.queue ?? queue
        let delivery = deliveryQueue.map { queue in
            SampleDelivery(queue: queue) { [weak self] item in self?.deliver(item) }
        }
        let newDelegate = UncheckedSendable(delegate)
        let (old, running) = settings.withLock { s -> (SampleDelivery?, Bool) in
            let old = s.delivery
            s.delegate = newDelegate.value
            s.queue = queue
            s.delivery = delivery
            return (old, session?.isRunning ?? false)
        }
        // Never called with a lock of ours held: waiting for the old delegate's call is safe.
        old?.closeAndWait()
        if running { delivery?.open(maximumPendingFrames: maximumPendingFrames) }
    }

    private func deliver(_ item: SampleDelivery.Item) {
        if let synchronizer = synchronizerTakeover?.synchronizer {
            switch item {
            case .frame(let sample):
                synchronizer.receive(
                    AVCaptureSynchronizedSampleBufferData(sampleBuffer: sample, droppedReason: nil), span: sample.duration, from: self)
            case .drop(let record):
                let reason = CMGetAttachment(record, key: kCMSampleBufferAttachmentKey_DroppedFrameReason, attachmentModeOut: nil) as? String
                synchronizer.receive(
                    AVCaptureSynchronizedSampleBufferData(sampleBuffer: record, droppedReason: AVCaptureOutput.DataDroppedReason(attachment: reason)),
                    span: record.duration, from: self)
            }
            return
        }
        guard let delegate = sampleBufferDelegate, let connection = connections.first else { return }
        switch item {
        case .frame(let sample): delegate.captureOutput(self, didOutput: sample, from: connection)
        case .drop(let record): delegate.captureOutput(self, didDrop: record, from: connection)
        }
    }

    // MARK: Running (called by the session and the frame router)

    var delivery: SampleDelivery? { settings.withLock { $0.delivery } }

    var maximumPendingFrames: Int { alwaysDiscardsLateVideoFrames ? 1 : 4 }

    func openForRun() { delivery?.open(maximumPendingFrames: maximumPendingFrames) }


    /// Hands a frame to the delegate's queue.
    func enqueue(_ image: CVPixelBuffer, format: CMFormatDescription, metadata: FrameMetadata) {
        guard let delivery else { return }
        let sample = delivery.makeSampleBuffer()
        sample.reuse(
            imageBuffer: image, formatDescription: format, presentationTimeStamp: metadata.presentationTime,
            duration: metadata.frameDuration, metadata: metadata)
        // As an iPhone's frames: the Exif of the exposure that made it (made when read).
        sample.attachExifOfItsFrame()
        delivery.enqueueFrame(sample, lateRecord: delivery.makeSampleBuffer())
    }

    /// Tells the delegate that frames were lost.
    func enqueueDrops(count: Int, reason: DropReason, metadata: FrameMetadata) {
        guard let delivery else { return }
        for _ in 0..<count {
            let record = delivery.makeSampleBuffer()
            record.reuse(
                imageBuffer: nil, formatDescription: nil, presentationTimeStamp: metadata.presentationTime,
                duration: metadata.frameDuration, metadata: metadata)
            record.setAttachment(kCMSampleBufferAttachmentKey_DroppedFrameReason, reason.attachmentValue)
            delivery.enqueueDrop(record)
        }
    }

    // MARK: Apple-declared members overridable by subclasses (helpers in AVCaptureVideoDataOutput+MinFrameDuration.swift)

    /// The shortest time between frames (default `.invalid`: unlimited).
    @available(*, deprecated, message: "Use AVCaptureConnection's videoMinFrameDuration property instead.")
    open var minFrameDuration: CMTime {
        get { connection(with: .video)?.minFrameDurationSetting ?? pendingMinFrameDuration.withLock { $0 } }
        set {
            if let connection = connection(with: .video) {
                enforce { try connection.setVideoFrameDuration(newValue, minimum: true) }
            } else {
                pendingMinFrameDuration.withLock { $0 = newValue }
            }
        }
    }

    // MARK: Asset writer settings

    /// Codecs an `AVAssetWriter` can encode this output's frames to, for a file type: H.264
    /// (and HEVC where FFmpeg has libx265) for QuickTime and MPEG-4 files; none for others.
    open func availableVideoCodecTypesForAssetWriter(writingTo outputFileType: AVFileType) -> [AVVideoCodecType] {
        [.mov, .mp4, .m4v].contains(outputFileType) ? AssetWriterSettings.videoCodecs : []
    }

    /// Settings for an `AVAssetWriterInput` writing this output's frames: the default codec
    /// (HEVC where available, as iPhones record, else H.264).
    open func recommendedVideoSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        guard let codec = availableVideoCodecTypesForAssetWriter(writingTo: outputFileType).first else { return nil }
        return recommendedVideoSettings(forVideoCodecType: codec, assetWriterOutputFileType: outputFileType)
    }

    /// Settings for an `AVAssetWriterInput` encoding this output's frames with `videoCodecType`:
    /// the delivered size, the active frame rate, about 0.17 bits per pixel (10.5 Mbit/s at
    /// 1080p30, iPhone-like; half for HEVC), a keyframe a second. Nil without a camera
    /// connected. A codec not in `availableVideoCodecTypesForAssetWriter(writingTo:)` raises
    /// `NSInvalidArgumentException`, as Apple's header says ("The videoCodecType string
    /// provided must be present in the availableVideoCodecTypesForAssetWriterWithOutputFileType:
    /// array, or an NSInvalidArgumentException is thrown").
    open func recommendedVideoSettings(forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType) -> [String: Any]? {
        var settings: [String: Any]?
        enforce { settings = try recommendedVideoSettingsChecked(forVideoCodecType: videoCodecType, assetWriterOutputFileType: outputFileType) }
        return settings
    }

    /// The checked form of `recommendedVideoSettings(forVideoCodecType:assetWriterOutputFileType:)`
    /// (Linux addition): throws the exception iOS raises for a codec the writer cannot make.
    public func recommendedVideoSettingsChecked(
        forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType,
        selector: String = "recommendedVideoSettingsForVideoCodecType:assetWriterOutputFileType:"
    ) throws(AVCaptureException) -> [String: Any]? {
        guard availableVideoCodecTypesForAssetWriter(writingTo: outputFileType).contains(videoCodecType) else {
            throw AVCaptureException(.invalidArgument, selectorReason(
                "AVCaptureVideoDataOutput", selector,
                "videoCodecType \(videoCodecType.rawValue) must be present in availableVideoCodecTypesForAssetWriterWithOutputFileType: for \(outputFileType.rawValue)"))
        }
        guard let dimensions = deliveredDimensions,
            let device = (connections.first?.inputPorts.first?.input as? AVCaptureDeviceInput)?.device
        else { return nil }
        let duration = device.activeVideoMinFrameDuration
        let frameRate = duration.isNumeric && duration.value > 0 ? 1 / duration.seconds : 30
        let pixels = Double(dimensions.width) * Double(dimensions.height)
        let bitRate = Int(pixels * frameRate * (videoCodecType == .hevc ? 0.085 : 0.17))
        var properties: [String: Any] = [
            AVVideoAverageBitRateKey: bitRate, AVVideoExpectedSourceFrameRateKey: Int(frameRate.rounded()),
            AVVideoMaxKeyFrameIntervalDurationKey: 1, AVVideoAllowFrameReorderingKey: false,
        ]
        if videoCodecType == .h264 { properties[AVVideoProfileLevelKey] = AVVideoProfileLevelH264HighAutoLevel }
        return [
            AVVideoCodecKey: videoCodecType, AVVideoWidthKey: Int(dimensions.width), AVVideoHeightKey: Int(dimensions.height),
            AVVideoCompressionPropertiesKey: properties,
        ]
    }

    /// The iOS 17 form with the output file's URL, which changes nothing here (the same raise).
    open func recommendedVideoSettings(
        forVideoCodecType videoCodecType: AVVideoCodecType, assetWriterOutputFileType outputFileType: AVFileType, outputFileURL: URL?
    ) -> [String: Any]? {
        var settings: [String: Any]?
        enforce {
            settings = try recommendedVideoSettingsChecked(
                forVideoCodecType: videoCodecType, assetWriterOutputFileType: outputFileType,
                selector: "recommendedVideoSettingsForVideoCodecType:assetWriterOutputFileType:outputFileURL:")
        }
        return settings
    }
}
