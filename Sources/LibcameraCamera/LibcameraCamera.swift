import CLibcameraRuntime
import CaptureCore
import Foundation
import Synchronization
import V4L2Camera

/// A camera libcamera drives (a Raspberry Pi camera module, an IPU6 laptop's sensor, vimc):
/// a `CaptureBackend` whose unique ID is `libcamera:<libcamera's camera ID>`.
///
/// The camera is acquired while streaming and released otherwise, so another process can
/// use it in between (one that holds it makes `start` fail with `deviceInUse`).
package final class LibcameraCamera: CaptureBackend, @unchecked Sendable {
    /// libcamera's camera ID, e.g. "platform/vimc.0 Sensor B".
    package let cameraID: String
    package let descriptor: DeviceDescriptor
    /// The formats `descriptor.formats` lists, in the same order.
    let formats: [LibcameraFormat]
    /// The still-capture role's sizes libcamera takes unadjusted, smallest first (larger
    /// photos are taken in them: `LibcameraCamera+LargerStills.swift`).
    let stillFormats: [LibcameraFormat]
    /// The raw role's Bayer formats, one per colour filter layout (raw photos are taken in
    /// them: `LibcameraCamera+RawStills.swift`); empty where the pipeline streams no raw.
    let rawFormats: [LibcameraRawFormat]
    let limits: LibcameraLimits
    let system: LibcameraSystem
    let mapper: LibcameraControlMapper
    let stills = LibcameraStillTaker()
    /// The controls in force, which every new stream starts with.
    let carried = LibcameraCarriedControls()
    private let connected = Atomic<Bool>(true)
    private let disconnectHandler = Mutex<(@Sendable () -> Void)?>(nil)
    let state = Mutex<Running?>(nil)
    /// Held by start, update, stop and a larger still's switch of configuration, so none of
    /// them sees a stream another is stopping or starting.
    let transition = NSLock()
    /// Where larger stills switch the configuration, one at a time.
    let switchQueue = DispatchQueue(label: "OpenCapture.libcamera.still-switch")
    /// Control requests made while not streaming, for the next start (taken under `state`).
    private let waiting = Mutex<[ControlRequest]>([])
    /// Brightness, contrast and saturation as last set (libcamera has no control reads).
    let driverValues = Mutex<[UInt32: Int64]>([:])

    struct Running {
        var stream: LibcameraStream
        var configuration: StreamConfiguration
        var sink: any FrameSink
    }

    init(
        system: LibcameraSystem, info: LibcameraCameraInfo, formats: [LibcameraFormat], stills: [LibcameraFormat] = [],
        raws: [LibcameraRawFormat] = [], limits: LibcameraLimits
    ) {
        self.system = system
        self.cameraID = info.id
        self.formats = formats
        self.stillFormats = stills
        self.rawFormats = raws
        self.limits = limits
        self.mapper = LibcameraControlMapper(limits: limits)
        var descriptor = LibcameraProfile.descriptor(info: info, formats: formats, stills: stills, limits: limits)
        descriptor.rawPhotoPixelFormats = raws.map(\.pixelFormat)
        for raw in raws { descriptor.rawPhotoSizes[raw.pixelFormat] = PhotoSize(width: raw.width, height: raw.height) }
        self.descriptor = descriptor
    }

    package var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// The configuration libcamera settled on for the running stream (it may differ from the
    /// active format's size: libcamera adjusts what a pipeline cannot do), nil when stopped.
    package var streamingSize: (width: Int, height: Int, adjusted: Bool)? {
        state.withLock { $0.map { ($0.stream.format.width, $0.stream.format.height, $0.stream.format.adjusted) } }
    }

    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        transition.lock()
        defer { transition.unlock() }
        stills.open()
        do {
            try startStream(configuration, sink: sink)
        } catch {
            stills.close(error)
            throw error
        }
    }

    func startStream(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        guard isConnected else { throw .deviceWasDisconnected }
        guard let api = system.api, let manager = system.manager else { throw .deviceWasDisconnected }
        let guarded = LibcameraFailureGuard(sink: sink, camera: self)
        let stream = try LibcameraStream(
            api: api, manager: manager, id: cameraID, asked: formats[configuration.formatIndex], configuration: configuration,
            sink: guarded, mapper: mapper, stills: stills, carried: carried)
        let queued = state.withLock { running -> [ControlRequest] in
            running = Running(stream: stream, configuration: configuration, sink: sink)
            return waiting.withLock { waiting in
                defer { waiting = [] }
                return waiting
            }
        }
        for request in queued { stream.apply(request) }
    }

    /// A new format or frame rate restarts the stream (libcamera configures only stopped
    /// cameras) into the same sink.
    package func update(_ configuration: StreamConfiguration) {
        transition.lock()
        guard let running = state.withLock({ $0 }), running.configuration != configuration else {
            transition.unlock()
            return
        }
        stopStream()
        var failure: BackendError?
        do {
            try startStream(configuration, sink: running.sink)
        } catch {
            failure = error
        }
        // Told without the lock: the session may stop the camera from the failure.
        transition.unlock()
        if let failure {
            stills.close(failure)
            running.sink.backendDidFail(failure)
        }
    }

    /// Goes with the next libcamera request; before `start`, it waits for the stream's first
    /// requests.
    package func apply(_ request: ControlRequest) {
        let stream = state.withLock { running -> LibcameraStream? in
            if running == nil { waiting.withLock { $0.append(request) } }
            return running?.stream
        }
        stream?.apply(request)
    }

    package func stop() {
        transition.lock()
        defer { transition.unlock() }
        stopStream()
        stills.close(.streamFailed("not streaming"))
        system.idleSoon()
    }

    func stopStream() {
        let running = state.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        running?.stream.stop()
    }

    /// Another process (or handle) holding the camera makes libcamera's acquire fail (EBUSY).
    package func checkAvailability() throws(BackendError) {
        guard isConnected else { throw .deviceWasDisconnected }
        guard state.withLock({ $0 == nil }), let api = system.api, let manager = system.manager else { return }
        var error: Int32 = 0
        guard let handle = api.pointee.open(manager, cameraID, &error) else {
            throw error == EBUSY ? .deviceInUse : .deviceWasDisconnected
        }
        api.pointee.close(handle)
        system.idleSoon()
    }

    /// Marks the camera gone (libcamera's cameraRemoved, or the plug-in's watch); a running
    /// stream ends with `deviceWasDisconnected` first.
    func markDisconnected() {
        guard connected.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged else { return }
        // The registry first (as V4L2 cameras do), so the session's notification finds the
        // device already disconnected.
        disconnectHandler.withLock { $0 }?()
        if let running = state.withLock({ $0 }) {
            stills.close(.deviceWasDisconnected)
            running.sink.backendDidFail(.deviceWasDisconnected)
        }
    }

    /// Queues driver values (brightness, contrast, saturation) for the next request.
    func queueDriverControls(_ controls: OCLcControls) {
        state.withLock { $0?.stream }?.queue(controls)
    }
}

extension LibcameraCamera: DisconnectReporting {
    package func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        disconnectHandler.withLock { $0 = handler }
    }
}

/// Passes frames through and marks the camera disconnected when the stream reports it.
private final class LibcameraFailureGuard: FrameSink, @unchecked Sendable {
    let sink: any FrameSink
    weak var camera: LibcameraCamera?

    init(sink: any FrameSink, camera: LibcameraCamera) {
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
