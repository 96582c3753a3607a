import CLibcameraRuntime
import CaptureCore
import Foundation
import Synchronization
import V4L2Camera

/// One running libcamera capture: the acquired camera, configured with one stream of a
/// role (the viewfinder's for the session, the still-capture role's for a larger photo), and the frame callback that converts each completed request into a
/// pool buffer (`V4L2FrameConverter`, the V4L2 backend's: libcamera's packed and YUV
/// formats are the same memory layouts), stamps its metadata and hands it to the sink.
///
/// Threads: frames arrive on libcamera's pipeline thread; `stop` may be called from any
/// other thread and returns once no callback runs.
final class LibcameraStream: @unchecked Sendable {
    let api: UnsafePointer<OCLibcameraAPI>
    private let handle: OpaquePointer
    private let sink: any FrameSink
    private let mapper: LibcameraControlMapper
    private let stills: LibcameraStillTaker
    private let carried: LibcameraCarriedControls
    /// A still-role stream: its frames go to the still taker only, not to the sink.
    private let forStill: Bool
    let format: LibcameraFormat
    private let converter: V4L2FrameConverter
    private let pool: CVPixelBufferPool
    private let outputFormat: PixelFormat
    private let frameDuration: CMTime
    /// libcamera's thread only.
    private var lastSequence: UInt64?

    /// Opens, configures `role`'s stream and starts the camera with the controls in force
    /// (`carried`). `asked` is what the device lists; the format libcamera settled on (it may
    /// adjust the size: vimc's 640 → 636) is `format`.
    init(
        api: UnsafePointer<OCLibcameraAPI>, manager: OpaquePointer, id: String, role: Int32 = Int32(OC_LC_ROLE_VIEWFINDER),
        asked: LibcameraFormat, configuration: StreamConfiguration, sink: any FrameSink, mapper: LibcameraControlMapper,
        stills: LibcameraStillTaker, carried: LibcameraCarriedControls
    ) throws(BackendError) {
        self.api = api
        self.sink = sink
        self.mapper = mapper
        self.stills = stills
        self.carried = carried
        forStill = role == Int32(OC_LC_ROLE_STILL)
        var error: Int32 = 0
        guard let handle = api.pointee.open(manager, id, &error) else {
            throw Self.openFailure(error)
        }
        self.handle = handle
        var settled = OCLcStreamFormat(fourcc: asked.fourcc, modifier: 0, width: Int32(asked.width), height: Int32(asked.height))
        var stride: Int32 = 0, buffers: Int32 = 0
        let result = api.pointee.configure(handle, role, &settled, &stride, &buffers)
        guard result >= 0, let code = LibcameraFormat.pixelCode(settled.fourcc) else {
            api.pointee.close(handle)
            throw .streamFailed("libcamera refused \(asked.width)x\(asked.height) (\(result < 0 ? String(cString: strerror(-result)) : "format"))")
        }
        format = LibcameraFormat(fourcc: settled.fourcc, code: code, width: Int(settled.width), height: Int(settled.height), adjusted: result == 1)
        outputFormat = configuration.pixelFormat.eightBit
        converter = V4L2FrameConverter(source: code, width: format.width, height: format.height, sourceStride: Int(stride))
        let attachments: [String: any Sendable] = [
            kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_709_2,
            kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_sRGB,
            kCVImageBufferYCbCrMatrixKey: kCVImageBufferYCbCrMatrix_ITU_R_601_4,
        ]
        pool = CVPixelBufferPool(
            format: outputFormat, width: format.width, height: format.height, minimumBufferCount: 4, maximumBufferCount: 8,
            attachments: attachments)
        frameDuration = configuration.minFrameDuration
        var initial = Self.initialControls(carried: carried, mapper: mapper, configuration: configuration)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = api.pointee.start(handle, &initial, { context, frame in
            guard let context, let frame else { return }
            Unmanaged<LibcameraStream>.fromOpaque(context).takeUnretainedValue().deliver(frame.pointee)
        }, context)
        guard started >= 0 else {
            api.pointee.close(handle)
            throw .streamFailed("libcamera could not start: \(String(cString: strerror(-started)))")
        }
    }

    /// What libcamera's failure to acquire the camera (`oc_lc_open`'s errno) means: another
    /// holder (EBUSY), the camera gone (ENODEV), else the error said.
    static func openFailure(_ error: Int32) -> BackendError {
        error == EBUSY ? .deviceInUse : error == ENODEV ? .deviceWasDisconnected : .streamFailed(String(cString: strerror(error)))
    }

    /// What a stream starts with: the controls in force and the configuration's frame
    /// durations (`FrameDurationLimits`, where the camera has them).
    static func initialControls(
        carried: LibcameraCarriedControls, mapper: LibcameraControlMapper, configuration: StreamConfiguration
    ) -> OCLcControls {
        var initial = carried.current
        if mapper.limits.offers(OC_LC_HAS_FRAME_DURATION_LIMITS), configuration.minFrameDuration.isValid,
            configuration.maxFrameDuration.isValid
        {
            let shortest = configuration.minFrameDuration.seconds * 1_000_000, longest = configuration.maxFrameDuration.seconds * 1_000_000
            initial.frameDurationLimits = (Int64(shortest.rounded()), Int64(max(shortest, longest).rounded()))
            initial.set |= UInt32(OC_LC_HAS_FRAME_DURATION_LIMITS)
        }
        return initial
    }

    /// Queues a control change for the next libcamera request.
    func apply(_ request: ControlRequest) {
        send(mapper.controls(for: request), tag: request.id)
    }

    /// Queues libcamera controls with no control request behind them (driver controls).
    func queue(_ controls: OCLcControls) {
        send(controls, tag: 0)
    }

    /// Every control sent goes through here, so a restarted stream starts with it.
    private func send(_ controls: OCLcControls, tag: UInt64) {
        carried.note(controls)
        var controls = controls
        api.pointee.queueControls(handle, &controls, tag)
    }

    /// Stops streaming and releases the camera; no frame reaches the sink after it returns.
    func stop() {
        api.pointee.stop(handle)
        api.pointee.close(handle)
    }

    /// On libcamera's thread, once per completed request.
    private func deliver(_ frame: OCLcFrame) {
        var metadata = FrameMetadata()
        metadata.sequence = Int64(frame.sequence)
        let nanoseconds = frame.metadata & UInt32(OC_LC_MD_SENSOR_TIMESTAMP) != 0 ? frame.sensorTimestamp : frame.timestamp
        metadata.presentationTime = CMTime(value: nanoseconds, timescale: 1_000_000_000)
        metadata.frameDuration = frameDuration
        metadata.width = format.width
        metadata.height = format.height
        metadata.dequeueHostTime = CMClockGetTime(CMClockGetHostTimeClock()).value
        mapper.describe(frame, into: &metadata)
        if let settle = mapper.settleOnceModes() { send(settle, tag: 0) }
        if let last = lastSequence, frame.sequence > last + 1 {
            sink.backendDidDrop(count: Int(frame.sequence - last - 1), reason: .discontinuity, metadata: metadata)
        }
        lastSequence = frame.sequence
        guard frame.error == 0, frame.planeCount > 0, let data = frame.planes.0 else {
            sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata)
            return
        }
        // Planes of one buffer follow each other in libcamera's single-allocation buffers;
        // the converter reads them as one block.
        let bytes = [frame.planeBytes.0, frame.planeBytes.1, frame.planeBytes.2].prefix(Int(frame.planeCount)).reduce(0, +)
        stills.frameArrived(data, bytes: bytes, metadata: metadata, stream: self)
        guard !forStill else { return }
        guard let output = pool.dequeue() else {
            sink.backendDidDrop(count: 1, reason: .outOfBuffers, metadata: metadata)
            return
        }
        guard converter.convert(UnsafeRawPointer(data), bytes: bytes, into: output) else {
            sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata)
            return
        }
        sink.backendDidCapture(output, metadata: metadata)
    }

    /// Converts a frame's bytes into a new buffer of `pixelFormat` (a still).
    func convertStill(_ data: UnsafePointer<UInt8>, bytes: Int, pixelFormat: PixelFormat) -> CVBuffer? {
        let buffer = CVBuffer(format: pixelFormat.eightBit, width: format.width, height: format.height)
        let still = V4L2FrameConverter(source: format.code, width: format.width, height: format.height, sourceStride: converter.sourceStride)
        return still.convert(UnsafeRawPointer(data), bytes: bytes, into: buffer) ? buffer : nil
    }
}
