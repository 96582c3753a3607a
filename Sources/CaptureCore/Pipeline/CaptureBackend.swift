/// One format a device can stream, in plain values the AVFoundation layer wraps as
/// `AVCaptureDevice.Format`.
package struct DeviceFormatSpec: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// The format's native pixel format (what `formatDescription.mediaSubType` reports).
    package var pixelFormat: PixelFormat
    /// Supported frame-rate ranges, frames per second.
    package var frameRateRanges: [ClosedRange<Double>]
    package var minISO: Float
    package var maxISO: Float
    /// Shortest and longest exposure, seconds.
    package var minExposureDuration: Double
    package var maxExposureDuration: Double
    /// Horizontal field of view in degrees.
    package var fieldOfView: Float
    package var maxZoomFactor: Double
    package var isBinned: Bool
    package var isHDRSupported: Bool
    /// Raw values of `AVCaptureColorSpace`, narrow to wide.
    package var colorSpaces: [Int]
    /// Largest photo size the format can take.
    package var maxPhotoWidth: Int
    package var maxPhotoHeight: Int
    /// Photo sizes beyond `maxPhotoWidth` × `maxPhotoHeight`, smallest first, that the device
    /// reaches by switching to another of its formats for the still (a V4L2 camera's larger
    /// frame sizes); `supportedMaxPhotoDimensions` lists them after the format's own.
    package var largerPhotoSizes: [PhotoSize] = []
    /// What `formatDescription.mediaSubType` reports: the device's own encoding, which
    /// differs from `pixelFormat` for real cameras ('yuvs', 'dmb1' …).
    package var mediaSubType: OSType
    /// Raw value of `AVCaptureDevice.Format.AutoFocusSystem` (0 none, 1 contrast detection).
    package var autoFocusSystem = 1
    /// The raw `AVCaptureVideoStabilizationMode`s besides `.off` the format can stabilise
    /// with (none for V4L2 cameras).
    package var stabilizationModes: [Int] = []

    package init(
        width: Int, height: Int, pixelFormat: PixelFormat = .yuv420BiPlanarVideoRange,
        frameRateRanges: [ClosedRange<Double>], minISO: Float, maxISO: Float,
        minExposureDuration: Double, maxExposureDuration: Double, fieldOfView: Float,
        maxZoomFactor: Double, isBinned: Bool = false, isHDRSupported: Bool = false,
        colorSpaces: [Int] = [0], maxPhotoWidth: Int? = nil, maxPhotoHeight: Int? = nil, mediaSubType: OSType? = nil
    ) {
        self.mediaSubType = mediaSubType ?? pixelFormat.rawValue
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.frameRateRanges = frameRateRanges
        self.minISO = minISO
        self.maxISO = maxISO
        self.minExposureDuration = minExposureDuration
        self.maxExposureDuration = maxExposureDuration
        self.fieldOfView = fieldOfView
        self.maxZoomFactor = maxZoomFactor
        self.isBinned = isBinned
        self.isHDRSupported = isHDRSupported
        self.colorSpaces = colorSpaces
        self.maxPhotoWidth = maxPhotoWidth ?? width
        self.maxPhotoHeight = maxPhotoHeight ?? height
    }

    /// The highest frame rate over all ranges.
    package var maxFrameRate: Double { frameRateRanges.map(\.upperBound).max() ?? 0 }
}

/// A photo's width and height in pixels.
package struct PhotoSize: Sendable, Equatable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// What identifies a device and what it can do.
package struct DeviceDescriptor: Sendable {
    package var uniqueID: String
    package var modelID: String
    package var localizedName: String
    package var manufacturer: String
    /// Raw value of `AVCaptureDevice.Position`.
    package var position: Int
    /// Raw value of `AVCaptureDevice.DeviceType`, e.g. "AVCaptureDeviceTypeBuiltInWideAngleCamera".
    package var deviceType: String
    package var formats: [DeviceFormatSpec]
    /// For each session preset (raw value), the index of the format that serves it.
    package var presetFormats: [String: Int]
    /// The index of the format active when the device is first used.
    package var defaultFormatIndex: Int
    /// The fixed f-number.
    package var lensAperture: Float
    /// The device's colour calibration, when known (white-balance conversions need it).
    package var colorCalibration: ColorCalibration? = nil
    /// Whether the device takes exposure commands (modes, custom exposure, bias, metering point).
    package var supportsExposureControl = true
    /// Whether the device has low-light boost (`isLowLightBoostSupported`).
    package var supportsLowLightBoost = false
    /// Focus abilities of the lens, and whether the camera has a torch.
    package var focus = FocusCapabilities()
    package var hasTorch = false
    /// Whether the torch can switch itself on in dim scenes (`TorchMode.auto`).
    package var supportsAutoTorch = true
    /// The Bayer formats raw photos come in (`availableRawPhotoPixelFormatTypes`: Core
    /// Video's 14-bit Bayer types, one per colour filter layout the sensor offers); empty
    /// for cameras that hand out processed pictures only.
    package var rawPhotoPixelFormats: [UInt32] = []
    /// The size of the mosaic a raw photo of each format has, where it is the sensor's
    /// rather than the photo's (a libcamera camera's raw mode); a format not here gives a
    /// mosaic of the photo's size (the simulated cameras).
    package var rawPhotoSizes: [UInt32: PhotoSize] = [:]

    package init(
        uniqueID: String, modelID: String, localizedName: String, manufacturer: String, position: Int,
        deviceType: String, formats: [DeviceFormatSpec], presetFormats: [String: Int], defaultFormatIndex: Int,
        lensAperture: Float
    ) {
        self.uniqueID = uniqueID
        self.modelID = modelID
        self.localizedName = localizedName
        self.manufacturer = manufacturer
        self.position = position
        self.deviceType = deviceType
        self.formats = formats
        self.presetFormats = presetFormats
        self.defaultFormatIndex = defaultFormatIndex
        self.lensAperture = lensAperture
    }
}

/// How a stream is to run: the format, the frame durations and the pixel format to render.
package struct StreamConfiguration: Sendable, Equatable {
    package var formatIndex: Int
    /// 1 / max frame rate.
    package var minFrameDuration: CMTime
    /// 1 / min frame rate; continuous auto exposure may lengthen frames up to this.
    package var maxFrameDuration: CMTime
    /// The pixel format the backend should produce (the session picks what its outputs need).
    package var pixelFormat: PixelFormat
    /// Video HDR (`isVideoHDREnabled`, `automaticallyAdjustsVideoHDREnabled`).
    package var videoHDR = VideoHDRMode.off
    /// The raw value of `AVCaptureColorSpace` to render in (0 sRGB, 1 P3_D65).
    package var colorSpace = 0
    /// The raw value of the `AVCaptureVideoStabilizationMode` in force (0 off; never −1, auto).
    package var videoStabilization = 0
    /// Every connection of the device wants frames mirrored: a device that can flip them
    /// itself (V4L2 horizontal_flip) does, and says so in `FrameMetadata.isMirroredByDevice`;
    /// others ignore it and the frame router mirrors.
    package var mirrored = false

    package init(formatIndex: Int, minFrameDuration: CMTime, maxFrameDuration: CMTime, pixelFormat: PixelFormat) {
        self.formatIndex = formatIndex
        self.minFrameDuration = minFrameDuration
        self.maxFrameDuration = maxFrameDuration
        self.pixelFormat = pixelFormat
    }
}

/// Receives a running device's frames on the device's capture thread.
///
/// The capture thread never waits for a consumer, except in virtual time, where the
/// device asks `waitUntilReadyForNextFrame()` so that frames go as fast as the consumers
/// take them and none is dropped for lateness.
package protocol FrameSink: AnyObject, Sendable {
    /// A frame is ready. The buffer comes from the backend's pool; the sink may keep it.
    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata)
    /// Frames were lost before they reached the sink (pool exhausted, sequence gap).
    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata)
    /// The stream failed; the backend has stopped.
    func backendDidFail(_ error: BackendError)
    /// Virtual time only: blocks until the consumers can take another frame, or returns
    /// false when the stream is stopping.
    func waitUntilReadyForNextFrame() -> Bool
    /// The host time (CLOCK_MONOTONIC nanoseconds) a simulated camera should take as its first
    /// frame's, so that devices a session starts together share one scene clock; nil for now.
    var streamEpoch: Int64? { get }
}

extension FrameSink {
    package var streamEpoch: Int64? { nil }
}

/// A runtime failure of a device, reported to the session as a notification.
package enum BackendError: Error, Sendable, Equatable {
    case deviceWasDisconnected
    case deviceInUse
    case notAuthorized(String)
    case streamFailed(String)
}

/// How a simulated device paces frames.
package enum Pacing: Sendable, Equatable {
    /// One frame per frame duration on the host clock.
    case realTime
    /// As fast as the consumers take frames; timestamps advance by the frame duration.
    case virtual
}

/// A source of frames: a simulated camera or a V4L2 device.
///
/// `start`, `stop` and `update` are called by the session with its configuration lock
/// held; frames arrive on the backend's own capture thread.
package protocol CaptureBackend: AnyObject, Sendable {
    var descriptor: DeviceDescriptor { get }
    /// Whether the device is still there.
    var isConnected: Bool { get }
    /// Starts streaming to `sink`; returns once the first frame is being produced.
    func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError)
    /// Changes the configuration of a running stream at the next frame boundary.
    func update(_ configuration: StreamConfiguration)
    /// Queues a control change. The backend applies it at a frame boundary (or at the next
    /// start when not streaming) and stamps that frame's `FrameMetadata.appliedRequest`.
    func apply(_ request: ControlRequest)
    /// Stops streaming; when it returns, the sink gets no more calls.
    func stop()
    /// Throws when this process cannot stream from the device right now (no permission,
    /// another program streaming from it).
    func checkAvailability() throws(BackendError)
}

extension CaptureBackend {
    /// Simulated devices are always available.
    package func checkAvailability() throws(BackendError) {}
}

/// A request for one still photo at full resolution.
package struct StillRequest: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var pixelFormat: PixelFormat
    /// Whether the flash fires for this photo.
    package var flash: Bool
    /// Whether the still also carries the sensor's raw mosaic (`StillCapture.raw`).
    package var raw: Bool
    /// The raw format asked for (one of `DeviceDescriptor.rawPhotoPixelFormats`), 0 for the
    /// camera's first.
    package var rawPixelFormat: UInt32 = 0
    /// Frames fused into the processed still (multi-frame noise reduction); 1 takes one.
    package var fusedFrames: Int
    /// Zero shutter lag: take the still from the frame that was exposing when the request
    /// was made (the camera's recent-frame history), not from the next one.
    package var zeroShutterLag: Bool
    /// The moment of the request on the stream's clock (host nanoseconds), stamped by the
    /// backend for a zero-shutter-lag request.
    package var moment: Int64?
    /// The exposure of one photo of a bracket; nil takes the stream's.
    package var exposure: StillExposure?

    package init(
        width: Int, height: Int, pixelFormat: PixelFormat, flash: Bool, raw: Bool = false, fusedFrames: Int = 1,
        zeroShutterLag: Bool = false
    ) {
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        self.flash = flash
        self.raw = raw
        self.fusedFrames = fusedFrames
        self.zeroShutterLag = zeroShutterLag
    }
}

/// The exposure of one bracketed still.
package enum StillExposure: Sendable, Equatable {
    /// Auto exposure's, with the target biased by this many EV instead of the stream's bias
    /// (nil: the stream's bias).
    case autoBias(Float?)
    /// This exposure time (seconds) and ISO; nil keeps the stream's value of that part.
    case manual(duration: Double?, iso: Float?)
}

/// A still's raw data: the mosaic and the colour description a DNG carries.
package struct RawStill: @unchecked Sendable {
    /// The sensor's codes at the still's size, black level included.
    package var mosaic: RawMosaic
    /// The XYZ → camera-native matrices (row-major) and the white temperatures (kelvin)
    /// they were calibrated for, colder first.
    package var colorMatrix1: [Double]
    package var temperature1: Double
    package var colorMatrix2: [Double]
    package var temperature2: Double
    /// The camera-native RGB of the white the still was balanced for (largest channel 1).
    package var asShotNeutral: SIMD3<Double>

    package init(
        mosaic: RawMosaic, colorMatrix1: [Double], temperature1: Double, colorMatrix2: [Double], temperature2: Double,
        asShotNeutral: SIMD3<Double>
    ) {
        self.mosaic = mosaic
        self.colorMatrix1 = colorMatrix1
        self.temperature1 = temperature1
        self.colorMatrix2 = colorMatrix2
        self.temperature2 = temperature2
        self.asShotNeutral = asShotNeutral
    }
}

/// A still photo and what the device knows about it.
package struct StillCapture: @unchecked Sendable {
    package var buffer: CVPixelBuffer
    package var metadata: FrameMetadata
    /// Whether the flash fired.
    package var flashFired: Bool
    /// The raw data, when the request asked for it.
    package var raw: RawStill?
    /// Frames fused into the processed still.
    package var fusedFrames = 1
    /// Whether the still came from a frame exposed before the request (zero shutter lag).
    package var fromRecentFrames = false
    /// The JPEG the device itself sent for this still (a Motion JPEG camera), byte for
    /// byte, when the still is that frame unchanged (its size, not flipped); nil otherwise.
    /// A photo output may hand it out with EXIF added instead of encoding `buffer` again.
    package var deviceJPEG: [UInt8]? = nil

    package init(buffer: CVPixelBuffer, metadata: FrameMetadata, flashFired: Bool, raw: RawStill? = nil) {
        self.buffer = buffer
        self.metadata = metadata
        self.flashFired = flashFired
        self.raw = raw
    }
}

/// Devices that take full-resolution stills while streaming (the simulated cameras).
package protocol StillCapturing: AnyObject, Sendable {
    /// Whether the device has a flash.
    var hasFlash: Bool { get }
    /// Renders one still with the stream's current exposure and white balance; calls
    /// `completion` once, on a thread of the backend's, with the still or the failure.
    func captureStill(_ request: StillRequest, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void)
    /// Keeps the history of recent frames that zero-shutter-lag stills are taken from while
    /// any `owner` wants it; the history is freed when the last one lets go.
    func keepRecentFrames(_ keep: Bool, for owner: ObjectIdentifier)
    /// Bytes the recent-frame history holds now (0 when nobody keeps it).
    var recentFrameBytes: Int { get }
    /// The most stills one bracket may have on this device (`maxBracketedCapturePhotoCount`
    /// for cameras that are not simulated); 0 where stills cannot be exposed on request.
    var bracketedStillLimit: Int { get }
}

extension StillCapturing {
    package var bracketedStillLimit: Int { 0 }
}
