import CV4L2
import CaptureCore
import Foundation
import Glibc
import Synchronization

/// One running capture: the negotiated format, the mapped buffers and the capture thread
/// that waits for frames with poll, dequeues, converts or wraps, delivers and queues again.
final class V4L2Stream: @unchecked Sendable {
    private let node: V4L2Node
    private let mode: V4L2Mode
    private let sink: any FrameSink
    private let buffers: V4L2MappedBuffers
    /// Bytes per line of the negotiated format's first plane.
    let bytesPerLine: Int
    /// The frame interval the driver settled on.
    let frameDuration: CMTime
    private let outputFormat: PixelFormat
    /// Pixel buffers over the mapped memory, when the output takes the device's layout.
    private var wrapped: [CVBuffer] = []
    private let converter: V4L2FrameConverter?
    private let pool: CVPixelBufferPool?
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let controls: V4L2ControlApplier
    /// The camera's stills (or a larger still's sink), told a Motion JPEG frame's own bytes
    /// when it may become a still.
    private let stills: (any V4L2JPEGNoting)?
    /// Buffers the driver holds (queued) and ones consumers still hold (wrapped, delivered).
    private var queued: Set<Int> = []
    /// The sequence number of the previous frame; the driver counts from 0 at STREAMON,
    /// so frames lost before the first one show up as a gap too.
    private var lastSequence = UInt32.max
    /// Whether the driver flips this stream's frames (horizontal_flip set at start).
    private var isMirroredByDevice = false

    /// Sets the format and frame interval, maps buffers and starts streaming. Throws the
    /// failing call (vivid's Queue Setup and Start Streaming errors surface here).
    init(
        node: V4L2Node, mode: V4L2Mode, configuration: StreamConfiguration, sink: any FrameSink, controls: V4L2ControlApplier,
        horizontalFlip: V4L2ControlInfo?, stills: (any V4L2JPEGNoting)? = nil
    ) throws(V4L2Failure) {
        self.node = node
        self.mode = mode
        self.sink = sink
        self.controls = controls
        self.stills = stills
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(mode.width)
        format.fmt.pix.height = UInt32(mode.height)
        format.fmt.pix.pixelformat = mode.code.rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try node.control(OC_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)
        guard format.fmt.pix.pixelformat == mode.code.rawValue, Int(format.fmt.pix.width) == mode.width,
              Int(format.fmt.pix.height) == mode.height
        else { throw V4L2Failure("VIDIOC_S_FMT (driver chose \(format.fmt.pix.width)x\(format.fmt.pix.height))", EINVAL) }
        bytesPerLine = Int(format.fmt.pix.bytesperline)
        frameDuration = V4L2Stream.setInterval(node: node, configuration.minFrameDuration)
        // No V4L2 mode here is 10-bit: an 'x420'/'xf20' output gets 420v/420f buffers, which
        // the frame router widens.
        let pixelFormat = configuration.pixelFormat.eightBit
        outputFormat = pixelFormat
        let zeroCopy = mode.code.sameLayout == pixelFormat && bytesPerLine % 2 == 0
        buffers = try V4L2MappedBuffers(node: node, count: zeroCopy ? 8 : 4)
        let attachments: [String: any Sendable] = [
            kCVImageBufferColorPrimariesKey: kCVImageBufferColorPrimaries_ITU_R_709_2,
            kCVImageBufferTransferFunctionKey: kCVImageBufferTransferFunction_sRGB,
            kCVImageBufferYCbCrMatrixKey: kCVImageBufferYCbCrMatrix_ITU_R_601_4,
        ]
        if zeroCopy {
            converter = nil
            pool = nil
            wrapped = (0..<buffers.count).map { [buffers, mode, bytesPerLine] index in
                let buffer = CVBuffer(
                    format: pixelFormat, width: mode.width, height: mode.height,
                    planes: V4L2Stream.planes(of: pixelFormat, width: mode.width, height: mode.height, stride: bytesPerLine),
                    wrapping: buffers.addresses[index], byteCount: buffers.lengths[index], owner: buffers)
                buffer.attachmentStore.withLock { $0 = attachments }
                return buffer
            }
        } else {
            converter = V4L2FrameConverter(source: mode.code, width: mode.width, height: mode.height, sourceStride: bytesPerLine)
            pool = CVPixelBufferPool(
                format: pixelFormat, width: mode.width, height: mode.height, minimumBufferCount: 4,
                maximumBufferCount: 8, attachments: attachments)
        }
        // Mirroring by the driver (horizontal_flip) costs nothing and keeps zero copy; set
        // before STREAMON so every frame of the stream is flipped or none is.
        if let flip = horizontalFlip {
            let kept = try? node.setValue(configuration.mirrored ? 1 : 0, of: flip.id)
            isMirroredByDevice = configuration.mirrored && kept == 1
        } else {
            isMirroredByDevice = false
        }
        for index in 0..<buffers.count { try queue(index) }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        do {
            try node.control(OC_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        } catch {
            V4L2Stream.release(node)
            throw error
        }
        let thread = Thread { [self] in captureLoop() }
        thread.name = "OpenCapture.v4l2.\(node.path)"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Whether frames reach the outputs without a copy.
    var isZeroCopy: Bool { !wrapped.isEmpty }

    /// Stops the thread, then streaming; the sink gets no calls after this returns.
    func stop() {
        stopping.store(true, ordering: .releasing)
        finished.wait()
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try? node.control(OC_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
        V4L2Stream.release(node)
    }

    /// Frees the driver's buffers; fails harmlessly (EBUSY) while consumers still hold
    /// mapped frames, which the kernel then frees when the last mapping goes.
    private static func release(_ node: V4L2Node) {
        var request = v4l2_requestbuffers()
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try? node.control(OC_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
    }

    /// Asks for the frame interval of `duration` (the driver rounds) and returns what it kept.
    private static func setInterval(node: V4L2Node, _ duration: CMTime) -> CMTime {
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        if duration.isValid && duration.value > 0 {
            parm.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(duration.value), denominator: UInt32(duration.timescale))
            try? node.control(OC_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parm)
        }
        var current = v4l2_streamparm()
        current.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        guard (try? node.control(OC_VIDIOC_G_PARM, "VIDIOC_G_PARM", &current)) != nil else { return duration }
        let kept = current.parm.capture.timeperframe
        guard kept.numerator > 0, kept.denominator > 0 else { return duration }
        return CMTime(value: Int64(kept.numerator), timescale: Int32(kept.denominator))
    }

    static func planes(of format: PixelFormat, width: Int, height: Int, stride: Int) -> [CVBuffer.Plane] {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        switch format {
        case .yuv420BiPlanarVideoRange, .yuv420BiPlanarFullRange:
            return [
                .init(offset: 0, width: width, height: height, bytesPerRow: stride),
                .init(offset: stride * height, width: chromaWidth, height: chromaHeight, bytesPerRow: stride),
            ]
        case .yuv420PlanarVideoRange, .yuv420PlanarFullRange:
            let chromaStart = stride * height
            return [
                .init(offset: 0, width: width, height: height, bytesPerRow: stride),
                .init(offset: chromaStart, width: chromaWidth, height: chromaHeight, bytesPerRow: stride / 2),
                .init(offset: chromaStart + stride / 2 * chromaHeight, width: chromaWidth, height: chromaHeight, bytesPerRow: stride / 2),
            ]
        case .bgra:
            return [.init(offset: 0, width: width, height: height, bytesPerRow: stride)]
        case .yuv420TenBitBiPlanarVideoRange, .yuv420TenBitBiPlanarFullRange:
            preconditionFailure("V4L2 streams 8-bit formats; the frame router widens them to 10 bits")
        case .bayerRGGB14, .bayerGRBG14, .bayerBGGR14, .bayerGBRG14, .disparityFloat16, .disparityFloat32, .depthFloat16,
            .depthFloat32, .oneComponent8:
            preconditionFailure("V4L2 streams pictures; Bayer buffers are raw photos")
        }
    }

    private func queue(_ index: Int) throws(V4L2Failure) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try node.control(OC_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
        queued.insert(index)
    }

    // MARK: Capture thread

    private func captureLoop() {
        defer { finished.signal() }
        while !stopping.load(ordering: .acquiring) {
            do throws(V4L2Failure) {
                try requeueReleasedBuffers()
                if queued.isEmpty {
                    // Every buffer is with a consumer: the driver has nothing to fill.
                    usleep(1000)
                    continue
                }
                guard try waitForFrame() else { continue }
                try dequeueAndDeliver()
            } catch {
                fail(error)
                return
            }
        }
    }

    /// Queues wrapped buffers that every consumer has let go of.
    private func requeueReleasedBuffers() throws(V4L2Failure) {
        guard !wrapped.isEmpty else { return }
        for index in wrapped.indices where !queued.contains(index) && isKnownUniquelyReferenced(&wrapped[index]) {
            try queue(index)
        }
    }

    /// Polls up to 50 ms; true when a frame is ready. A hang-up means the device is gone.
    private func waitForFrame() throws(V4L2Failure) -> Bool {
        var fds = pollfd(fd: node.fd, events: Int16(POLLIN | POLLPRI), revents: 0)
        let result = poll(&fds, 1, 50)
        if result < 0 {
            if errno == EINTR { return false }
            throw V4L2Failure("poll", errno)
        }
        if fds.revents & Int16(POLLHUP) != 0 { throw V4L2Failure("poll (hang-up)", ENODEV) }
        // POLLERR alone: let DQBUF say what is wrong.
        return result > 0 && fds.revents & Int16(POLLIN | POLLERR) != 0
    }

    private func dequeueAndDeliver() throws(V4L2Failure) {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        do {
            try node.control(OC_VIDIOC_DQBUF, "VIDIOC_DQBUF", &buffer)
        } catch where error.code == EAGAIN {
            return
        }
        let dequeued = CMClockGetTime(CMClockGetHostTimeClock()).value
        let index = Int(buffer.index)
        queued.remove(index)
        let seconds = Double(buffer.timestamp.tv_sec) + Double(buffer.timestamp.tv_usec) / 1_000_000
        let applied = controls.applyPending(on: node, at: seconds)
        var metadata = FrameMetadata()
        metadata.sequence = Int64(buffer.sequence)
        metadata.presentationTime = CMTime(
            value: Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000, timescale: 1_000_000_000)
        metadata.frameDuration = frameDuration
        metadata.width = mode.width
        metadata.height = mode.height
        metadata.appliedRequest = applied
        metadata.dequeueHostTime = dequeued
        metadata.isMirroredByDevice = isMirroredByDevice
        controls.describe(into: &metadata)

        let gap = buffer.sequence &- lastSequence &- 1
        if gap > 0 && gap < 1 << 31 {
            // The sequence counts frames the driver had no buffer for: one drop each.
            sink.backendDidDrop(count: Int(gap), reason: .discontinuity, metadata: metadata)
        }
        lastSequence = buffer.sequence
        if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 {
            // The driver says the data may be corrupt: the frame is lost, not shown.
            sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata)
            try queue(index)
            return
        }
        if !wrapped.isEmpty {
            sink.backendDidCapture(wrapped[index], metadata: metadata)
            return  // queued again once the consumers let it go
        }
        defer { try? queue(index) }
        if mode.code == .mjpeg, let stills, stills.wantsFrames {
            // Copied before the buffer goes back to the driver: a photo of this frame can be
            // the JPEG the camera sent (StillCapture.deviceJPEG).
            let bytes = UnsafeRawBufferPointer(start: buffers.addresses[index], count: min(Int(buffer.bytesused), buffers.lengths[index]))
            stills.noteJPEG(Array(bytes), sequence: metadata.sequence)
        }
        guard let pool, let converter, let output = pool.dequeue() else {
            sink.backendDidDrop(count: 1, reason: .outOfBuffers, metadata: metadata)
            return
        }
        guard converter.convert(UnsafeRawPointer(buffers.addresses[index]), bytes: Int(buffer.bytesused), into: output) else {
            sink.backendDidDrop(count: 1, reason: .discontinuity, metadata: metadata)
            return
        }
        sink.backendDidCapture(output, metadata: metadata)
    }

    private func fail(_ error: V4L2Failure) {
        guard !stopping.load(ordering: .acquiring) else { return }
        sink.backendDidFail(V4L2Camera.backendError(error))
    }
}
