import CPipeWireRuntime
import CaptureCore
import Foundation
import Synchronization
import V4L2Camera

/// One running read of a camera node: the plug-in's capture stream, its frames converted
/// into the pixel-buffer pool (`V4L2FrameConverter`, as V4L2 frames are) and handed to the
/// sink on the plug-in's loop thread.
///
/// Timestamps are on the host clock (CLOCK_MONOTONIC): the producer's `spa_meta_header` pts
/// when it is on that clock (PipeWire's V4L2 and libcamera nodes stamp buffers so), else the
/// moment the plug-in took the buffer. Sequence gaps in the header are reported as drops.
final class PipeWireStream: @unchecked Sendable {
    private let runtime: OCPWRuntime
    private let capture: OpaquePointer
    private let receiver: Receiver

    /// Starts reading `node` in `mode`; frames go to `sink`, a failure or the node's removal
    /// to `ended` (on a queue of the camera's, after the loop thread returned).
    init(
        connection: PipeWireConnection, node: UInt32, mode: PipeWireMode, configuration: StreamConfiguration, sink: any FrameSink,
        requests: AppliedRequests, ended: @escaping @Sendable (BackendError) -> Void
    ) throws(BackendError) {
        guard let context = connection.handle else { throw .deviceWasDisconnected }
        let runtime = connection.runtime
        self.runtime = runtime
        let receiver = Receiver(mode: mode, configuration: configuration, sink: sink, requests: requests, ended: ended)
        self.receiver = receiver
        var request = mode.request
        // The rate asked for, as frames per second: the reciprocal of the frame duration.
        let duration = configuration.minFrameDuration
        let (rateNumerator, rateDenominator) = duration.isValid && duration.value > 0 ? (Int32(duration.timescale), Int32(duration.value)) : (0, 0)
        var error = [CChar](repeating: 0, count: 256)
        let user = Unmanaged.passUnretained(receiver).toOpaque()
        let started = error.withUnsafeMutableBufferPointer { buffer in
            runtime.capture_start!(context, node, &request, rateNumerator, rateDenominator, { user, frame in
                guard let user, let frame else { return }
                Unmanaged<Receiver>.fromOpaque(user).takeUnretainedValue().deliver(frame.pointee)
            }, { user, state, message in
                guard let user else { return }
                Unmanaged<Receiver>.fromOpaque(user).takeUnretainedValue().changed(state, message.map { String(cString: $0) } ?? "")
            }, user, buffer.baseAddress, buffer.count)
        }
        guard let started else { throw .streamFailed(error.text) }
        capture = started
    }

    /// The format the producer agreed to, once negotiated.
    var negotiated: OCPWMode? {
        var mode = OCPWMode()
        return runtime.capture_negotiated!(capture, &mode) != 0 ? mode : nil
    }

    /// Stops reading and unlinks; the sink gets no calls after this returns.
    func stop() {
        receiver.stopped.store(true, ordering: .releasing)
        runtime.capture_stop!(capture)
    }
}

/// What the plug-in's callbacks reach: converts and delivers frames, reports the end.
private final class Receiver: @unchecked Sendable {
    let stopped = Atomic<Bool>(false)
    private let mode: PipeWireMode
    private let sink: any FrameSink
    private let requests: AppliedRequests
    private let ended: @Sendable (BackendError) -> Void
    private let frameDuration: CMTime
    private let pool: CVPixelBufferPool
    private let outputFormat: PixelFormat
    // Loop thread only: the converter (made at the first frame, when the stride is known),
    // scratch for frames in several blocks, the last sequence.
    private var converter: V4L2FrameConverter?
    private var scratch: [UInt8] = []
    private var lastSequence: Int64 = -1
    private var counter: Int64 = 0

    init(
        mode: PipeWireMode, configuration: StreamConfiguration, sink: any FrameSink, requests: AppliedRequests,
        ended: @escaping @Sendable (BackendError) -> Void
    ) {
        self.mode = mode
        self.sink = sink
        self.requests = requests
        self.ended = ended
        let duration = configuration.minFrameDuration
        frameDuration = duration.isValid && duration.value > 0 ? duration : CMTime(value: 1, timescale: 30)
        outputFormat = configuration.pixelFormat.eightBit
        pool = CVPixelBufferPool(
            format: outputFormat, width: mode.mode.width, height: mode.mode.height, minimumBufferCount: 4, maximumBufferCount: 8,
            attachments: [
                kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_709_2,
                kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_sRGB,
                kCVImageBufferYCbCrMatrixKey: kCVImageBufferYCbCrMatrix_ITU_R_601_4,
            ])
    }

    /// A frame from the plug-in (loop thread).
    func deliver(_ frame: OCPWFrame) {
        guard !stopped.load(ordering: .acquiring) else { return }
        var metadata = FrameMetadata()
        let host = Int64(frame.host_time)
        // The producer's pts when it is on the host clock (within a second of now), else now.
        let time = frame.pts >= 0 && abs(frame.pts - host) < 1_000_000_000 ? frame.pts : host
        metadata.presentationTime = CMTime(value: time, timescale: 1_000_000_000)
        metadata.dequeueHostTime = host
        metadata.frameDuration = frameDuration
        metadata.width = mode.mode.width
        metadata.height = mode.mode.height
        metadata.appliedRequest = requests.value.load(ordering: .acquiring)
        let sequence = frame.sequence >= 0 ? frame.sequence : counter
        counter += 1
        metadata.sequence = sequence
        if lastSequence >= 0 && sequence > lastSequence + 1 {
            sink.backendDidDrop(count: Int(sequence - lastSequence - 1), reason: .discontinuity, metadata: metadata)
        }
        lastSequence = sequence
        if frame.corrupted != 0 {
            sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata)
            return
        }
        guard let output = pool.dequeue() else {
            sink.backendDidDrop(count: 1, reason: .outOfBuffers, metadata: metadata)
            return
        }
        guard convert(frame, into: output) else {
            sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata)
            return
        }
        sink.backendDidCapture(output, metadata: metadata)
    }

    /// Converts a frame of one block (the planes one after the other, as V4L2 lays them out)
    /// or of one block per plane (gathered into `scratch` first).
    private func convert(_ frame: OCPWFrame, into output: CVBuffer) -> Bool {
        let planes = withUnsafeBytes(of: frame.data) { Array($0.bindMemory(to: UnsafePointer<UInt8>?.self).prefix(Int(frame.planes))) }
        let strides = withUnsafeBytes(of: frame.stride) { Array($0.bindMemory(to: Int32.self).prefix(Int(frame.planes))) }
        let sizes = withUnsafeBytes(of: frame.size) { Array($0.bindMemory(to: UInt32.self).prefix(Int(frame.planes))) }
        guard let first = planes.first ?? nil else { return false }
        let width = mode.mode.width
        let stride = mode.mode.code == .mjpeg ? 0 : (strides[0] > 0 ? Int(strides[0]) : minimumStride(width))
        if converter == nil || converter?.sourceStride != stride {
            converter = V4L2FrameConverter(source: mode.mode.code, width: width, height: mode.mode.height, sourceStride: stride)
        }
        guard let converter else { return false }
        if planes.count == 1 { return converter.convert(UnsafeRawPointer(first), bytes: Int(sizes[0]), into: output) }
        // Several blocks: gather them in order (each block is one plane at its own stride).
        let total = sizes.reduce(0) { $0 + Int($1) }
        if scratch.count < total { scratch = [UInt8](repeating: 0, count: total) }
        return scratch.withUnsafeMutableBytes { bytes in
            var offset = 0
            for (index, plane) in planes.enumerated() {
                guard let plane else { return false }
                bytes.baseAddress!.advanced(by: offset).copyMemory(from: plane, byteCount: Int(sizes[index]))
                offset += Int(sizes[index])
            }
            return converter.convert(UnsafeRawPointer(bytes.baseAddress!), bytes: total, into: output)
        }
    }

    /// Bytes per row of a tightly packed first plane.
    private func minimumStride(_ width: Int) -> Int {
        switch mode.mode.code {
        case .yuyv, .uyvy: ((width + 1) / 2) * 4
        case .rgb24, .bgr24: width * 3
        default: width
        }
    }

    /// A state change from the plug-in (loop thread): a removed node or an error ends the
    /// stream, reported off the loop thread so the session may stop the camera at once.
    func changed(_ state: Int32, _ message: String) {
        guard !stopped.load(ordering: .acquiring) else { return }
        let error: BackendError
        switch UInt32(bitPattern: state) {
        case OCPW_STATE_DISCONNECTED.rawValue: error = .deviceWasDisconnected
        case OCPW_STATE_ERROR.rawValue: error = .streamFailed(message)
        default: return
        }
        let ended = ended
        DispatchQueue.global().async { ended(error) }
    }
}
