import CV4L2
import CaptureCore
import Foundation
import Glibc
import Synchronization

/// A real camera through V4L2: a `CaptureBackend` over one video-capture device node.
///
/// The node is opened while streaming and for control reads and writes, and closed
/// otherwise, so other programs (and a re-plugged device) can use it in between.
package final class V4L2Camera: CaptureBackend, @unchecked Sendable {
    package let path: String
    package let capability: V4L2Capability
    package let modes: [V4L2Mode]
    package let controls: [V4L2ControlInfo]
    package let descriptor: DeviceDescriptor
    private let connected = Atomic<Bool>(true)
    let state = Mutex<Running?>(nil)
    /// Held across every stop and start of the stream (a new format, the session's stop, a
    /// still at a larger size), so one never runs into another.
    let transition = NSLock()
    /// Where a still larger than the stream switches the device's format (`V4L2Camera+LargerStills.swift`).
    let switchQueue = DispatchQueue(label: "OpenCapture.v4l2.still-switch")
    let applier: V4L2ControlApplier
    /// Still requests and the zero-shutter-lag history (`V4L2Camera+Stills.swift`).
    let stills: V4L2StillTaker

    struct Running {
        var node: V4L2Node
        var stream: V4L2Stream
        var configuration: StreamConfiguration
        var sink: any FrameSink
    }

    /// Where the device sits on USB (nil off USB): its bandwidth domain for multi-cam costs.
    package let usbLink: V4L2USBLink?

    /// Opens `path` to learn what it is; nil for nodes that do not capture video or that
    /// offer no format this backend can stream. Throws when the node cannot be opened.
    /// `sysfs` is where its USB link is looked up.
    package init?(path: String, sysfs: String = "/sys") throws(V4L2Failure) {
        let node = try V4L2Node(path: path)
        let capability = try V4L2Capability(node: node)
        guard capability.capturesVideo else { return nil }
        let modes = V4L2FormatEnumerator.modes(of: node)
        guard !modes.isEmpty else { return nil }
        self.path = path
        self.capability = capability
        self.modes = modes
        self.controls = V4L2ControlInfo.all(of: node)
        self.usbLink = V4L2USBLink.locate(node: path, sysfs: sysfs)
        self.applier = V4L2ControlApplier(controls: controls)
        self.stills = V4L2StillTaker(controls: controls)
        self.descriptor = V4L2DeviceProfile.descriptor(
            capability: capability, modes: modes, controls: controls, current: V4L2DeviceProfile.currentMode(of: node), path: path)
    }

    package var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// Called once, on whichever thread noticed, when the device goes away.
    private let disconnectHandler = Mutex<(@Sendable () -> Void)?>(nil)

    /// Sets what runs when the device is found gone (the registry posts
    /// `wasDisconnectedNotification`).
    package func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        disconnectHandler.withLock { $0 = handler }
    }

    /// Marks the device gone (its node vanished, or the driver said ENODEV); it never comes
    /// back as this object: a re-plugged device is a new one with the same unique ID.
    package func markDisconnected() {
        guard connected.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged else { return }
        disconnectHandler.withLock { $0 }?()
    }

    /// Whether a running stream hands out the driver's buffers without copying.
    package var isStreamingWithoutCopy: Bool { state.withLock { $0?.stream.isZeroCopy ?? false } }

    /// Checks that this process can stream from the device now: EACCES means no
    /// permission, EBUSY another program streaming from it.
    package func checkAvailability() throws(BackendError) {
        do {
            let node = try V4L2Node(path: path)
            // REQBUFS with count 0 claims nothing but fails with EBUSY while another file
            // handle owns the buffer queue.
            var request = v4l2_requestbuffers()
            request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            request.memory = V4L2_MEMORY_MMAP.rawValue
            if state.withLock({ $0 == nil }) { try node.control(OC_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request) }
        } catch {
            throw V4L2Camera.backendError(error)
        }
    }

    /// Starts the session's stream; stills are taken from now until `stop`.
    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        stills.open()
        transition.lock()
        do {
            try startStream(configuration, sink: sink)
            transition.unlock()
        } catch {
            transition.unlock()
            stills.close(error)
            throw error
        }
    }

    func startStream(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        guard isConnected else { throw .deviceWasDisconnected }
        let mode = modes[configuration.formatIndex]
        do {
            let node = try V4L2Node(path: path)
            let guarded = FailureGuard(sink: V4L2StillTap(sink: sink, stills: stills, node: node), camera: self)
            let flip = controls.first { $0.id == V4L2ControlID.horizontalFlip && !$0.isReadOnly }
            let stream = try V4L2Stream(
                node: node, mode: mode, configuration: configuration, sink: guarded, controls: applier, horizontalFlip: flip,
                stills: stills)
            state.withLock { $0 = Running(node: node, stream: stream, configuration: configuration, sink: sink) }
        } catch {
            if error.isDisconnect { markDisconnected() }
            throw V4L2Camera.backendError(error)
        }
    }

    /// Drivers refuse format changes while streaming (EBUSY) and many ignore frame-interval
    /// changes then, so a new format, frame rate or output pixel format restarts the stream
    /// (STREAMOFF, S_FMT, S_PARM, STREAMON) into the same sink. The sequence counts from 0
    /// again; no frame is reported lost for the restart. Waiting stills take a frame of
    /// the new stream.
    package func update(_ configuration: StreamConfiguration) {
        transition.lock()
        guard let running = state.withLock({ $0 }), running.configuration != configuration else { return transition.unlock() }
        stopStream()
        var failure: BackendError?
        do {
            try startStream(configuration, sink: running.sink)
        } catch {
            failure = error
        }
        // The session may stop this camera when it hears of the failure: not under the lock.
        transition.unlock()
        if let failure {
            stills.close(failure)
            running.sink.backendDidFail(failure)
        }
    }

    package func apply(_ request: ControlRequest) {
        applier.enqueue(request)
    }

    /// Stops the session's stream; stills still waiting fail.
    package func stop() {
        transition.lock()
        stopStream()
        transition.unlock()
        stills.close(.streamFailed("not streaming"))
    }

    func stopStream() {
        let running = state.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        running?.stream.stop()
    }

    // MARK: Linux controls

    /// A control's current value, through the streaming handle or a short-lived one.
    package func value(of control: V4L2ControlInfo) throws(V4L2Failure) -> Int64 {
        try withNode { node throws(V4L2Failure) in try node.value(of: control.id, is64: control.is64Bit) }
    }

    /// Writes a control; returns the value the driver kept (drivers clamp).
    package func setValue(_ value: Int64, of control: V4L2ControlInfo) throws(V4L2Failure) -> Int64 {
        try withNode { node throws(V4L2Failure) in
            try node.setValue(value, of: control.id, is64: control.is64Bit)
            return try node.value(of: control.id, is64: control.is64Bit)
        }
    }

    /// Presses a button control (vivid's Disconnect, for one); buttons have no value to read.
    package func press(_ control: V4L2ControlInfo) throws(V4L2Failure) -> Int64 {
        try withNode { node throws(V4L2Failure) in try node.setValue(1, of: control.id) }
    }

    private func withNode<T>(_ body: (V4L2Node) throws(V4L2Failure) -> T) throws(V4L2Failure) -> T {
        if let node = state.withLock({ $0?.node }) { return try body(node) }
        return try body(try V4L2Node(path: path))
    }

    static func backendError(_ failure: V4L2Failure) -> BackendError {
        switch failure.code {
        case EACCES, EPERM:
            .notAuthorized("\(failure.description). Add your user to the 'video' group (sudo usermod -aG video $USER) and log in again.")
        case EBUSY: .deviceInUse
        case ENODEV, ENXIO, ENOENT: .deviceWasDisconnected
        default: .streamFailed(failure.description)
        }
    }
}

/// Passes a stream's frames through and marks the camera disconnected before the session
/// hears of a disconnect, so `isConnected` is already false in its notification.
private final class FailureGuard: FrameSink, @unchecked Sendable {
    let sink: any FrameSink
    weak var camera: V4L2Camera?

    init(sink: any FrameSink, camera: V4L2Camera) {
        self.sink = sink
        self.camera = camera
    }

    func backendDidCapture(_ buffer: CVPixelBuffer, metadata: FrameMetadata) { sink.backendDidCapture(buffer, metadata: metadata) }
    func backendDidDrop(count: Int, reason: DropReason, metadata: FrameMetadata) {
        sink.backendDidDrop(count: count, reason: reason, metadata: metadata)
    }
    func backendDidFail(_ error: BackendError) {
        if error == .deviceWasDisconnected { camera?.markDisconnected() }
        sink.backendDidFail(error)
    }
    func waitUntilReadyForNextFrame() -> Bool { sink.waitUntilReadyForNextFrame() }
}
