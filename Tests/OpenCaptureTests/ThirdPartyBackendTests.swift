import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// A backend written outside OpenCapture, as a plug-in target of this package would write
/// one (the contract is `package`: code outside the package cannot): a provider and a
/// camera defined here, registered with a registry of the test's own, found through the
/// AVFoundation API and driven by a session.
@Suite("Third-party backend: a provider and camera from outside OpenCapture", .serialized)
struct ThirdPartyBackendTests {
    @Test("a registered provider's camera is discovered, streams its own pixels and timestamps, and its unplugging disconnects it",
          arguments: [kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange])
    func streamsThroughASession(pixelFormat: OSType) async throws {
        let provider = SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:solid-1")])
        let registry = DeviceRegistry(providers: [])
        registry.register(provider)
        try registry.withCurrent {
            let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
            #expect(discovery.devices.map(\.uniqueID) == ["test:solid-1"])
            let device = try #require(AVCaptureDevice(uniqueID: "test:solid-1"))
            #expect(device.localizedName == "Solid Colour Camera" && device.isConnected)
            #expect(AVCaptureDevice.default(for: .video) == device, "the only camera of the test's registry is the default")

            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            let collector = FrameCollector()
            collector.keptPixels = 1
            session.addInput(try AVCaptureDeviceInput(device: device))
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat]
            output.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutput(output)
            let errors = Mutex<[Int]>([])
            let gone = Mutex<[String]>([])
            let observers = [
                NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { note in
                    errors.withLock { $0.append((note.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code ?? 0) }
                },
                NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasDisconnectedNotification, object: nil, queue: nil) { note in
                    gone.withLock { $0.append((note.object as? AVCaptureDevice)?.uniqueID ?? "?") }
                },
            ]
            defer { observers.forEach(NotificationCenter.default.removeObserver) }

            session.startRunning()
            let frames = try collector.waitForFrames(8)
            let camera = provider.cameras[0]
            let stamped = Set(camera.stampedTimes)
            #expect(frames.allSatisfy { stamped.contains($0.time) }, "every timestamp is one the camera stamped")
            #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time }, "timestamps increase")
            #expect(frames.allSatisfy { $0.width == SolidColorCamera.width && $0.height == SolidColorCamera.height })
            #expect(frames.allSatisfy { $0.pixelFormat == pixelFormat })
            let (_, buffer) = try #require(collector.newestFrameWithPixels)
            #expect(SolidColorCamera.colour(of: buffer) == SolidColorCamera.colour(for: PixelFormat(rawValue: pixelFormat)!))

            provider.unplug(camera)
            eventually("the session reported the disconnection and the device was announced gone") {
                !errors.withLock { $0.isEmpty } && !gone.withLock { $0.isEmpty }
            }
            #expect(errors.withLock { $0 } == [AVError.Code.deviceWasDisconnected.rawValue])
            #expect(gone.withLock { $0 } == ["test:solid-1"])
            #expect(!device.isConnected)
            #expect(AVCaptureDevice(uniqueID: "test:solid-1") == nil)
            #expect(discovery.devices.isEmpty)
            eventually("the session stopped") { !session.isRunning }
        }
    }

    @Test("a hot-plugged camera is announced and listed after the registry's devices, in registration order")
    func hotPlugAndOrder() async throws {
        let first = SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:a")])
        let second = SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:b")], deniedNodes: ["/dev/test-denied"])
        let registry = DeviceRegistry(providers: [first])
        registry.register(second)
        try registry.withCurrent {
            let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
            #expect(discovery.devices.map(\.uniqueID) == ["test:a", "test:b"])
            #expect(registry.inaccessibleNodes == ["/dev/test-denied"], "each provider's inaccessible nodes are the registry's")

            let came = Mutex<[String]>([])
            let observer = NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasConnectedNotification, object: nil, queue: nil) { note in
                came.withLock { $0.append((note.object as? AVCaptureDevice)?.uniqueID ?? "?") }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let recorder = KVORecorder()
            let observation = discovery.observe(\.devices, options: [.new]) { _, change in recorder.record(change) }
            defer { observation.invalidate() }
            first.plug(SolidColorCamera(uniqueID: "test:c"))
            eventually("the new camera was announced") { came.withLock { $0 } == ["test:c"] }
            #expect(discovery.devices.map(\.uniqueID) == ["test:a", "test:b", "test:c"])
            // The announcement came on the provider's thread, outside this task: the session
            // still lists its own registry's devices.
            discovery.keyValueObservers.changeQueue.sync {}
            #expect(recorder.calls.contains { $0.new?.contains("[test:c]") == true }, "observers of devices heard the new camera")
            let device = try #require(AVCaptureDevice(uniqueID: "test:c"))
            #expect(device.isConnected)
            // The process's registry never saw the test's devices.
            #expect(DeviceRegistry.shared.device(uniqueID: "test:c") == nil)
        }
        #expect(AVCaptureDevice(uniqueID: "test:a") == nil, "outside withCurrent the process's registry answers")
    }

    @Test("a camera that notices its own unplugging (DisconnectReporting) is announced gone and fails its session")
    func selfReportedDisconnect() throws {
        let camera = SolidColorCamera(uniqueID: "test:self-reporting")
        let registry = DeviceRegistry(providers: [SolidColorProvider(cameras: [camera])])
        try registry.withCurrent {
            let device = try #require(AVCaptureDevice(uniqueID: "test:self-reporting"))
            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: device))
            let output = AVCaptureVideoDataOutput()
            let collector = FrameCollector()
            output.setSampleBufferDelegate(collector, queue: collector.queue)
            session.addOutput(output)
            let errors = Mutex<[Int]>([])
            let gone = Mutex<[String]>([])
            let observers = [
                NotificationCenter.default.addObserver(forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil) { note in
                    errors.withLock { $0.append((note.userInfo?[AVCaptureSessionErrorKey] as? NSError)?.code ?? 0) }
                },
                NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasDisconnectedNotification, object: nil, queue: nil) { note in
                    gone.withLock { $0.append((note.object as? AVCaptureDevice)?.uniqueID ?? "?") }
                },
            ]
            defer { observers.forEach(NotificationCenter.default.removeObserver) }
            session.startRunning()
            try collector.waitForFrames(2)
            Thread.detachNewThread { camera.vanish() }
            eventually("the session failed and the device was announced gone") {
                !errors.withLock { $0.isEmpty } && !gone.withLock { $0.isEmpty }
            }
            #expect(errors.withLock { $0 } == [AVError.Code.deviceWasDisconnected.rawValue])
            #expect(gone.withLock { $0 } == ["test:self-reporting"])
            #expect(AVCaptureDevice(uniqueID: "test:self-reporting") == nil)
        }
    }

    /// The photo output answers raw formats from what the backend declares (no check for a
    /// particular backend), and a raw photo's resolved dimensions are the declared mosaic's.
    @Test("raw photo formats and their dimensions come from the camera's own declaration")
    func rawFormatsAreTheBackendsDeclaration() throws {
        let grbg = (format: kCVPixelFormatType_14Bayer_GRBG, size: PhotoSize(width: 128, height: 96))
        let provider = SolidColorProvider(cameras: [
            SolidColorCamera(uniqueID: "test:raw", raw: [grbg]), SolidColorCamera(uniqueID: "test:processed"),
        ])
        let registry = DeviceRegistry(providers: [])
        registry.register(provider)
        try registry.withCurrent {
            let plain = AVCaptureSession()
            plain.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice(uniqueID: "test:processed"))))
            let plainOutput = AVCapturePhotoOutput()
            plain.addOutput(plainOutput)
            #expect(plainOutput.availableRawPhotoPixelFormatTypes.isEmpty && plainOutput.availableRawPhotoFileTypes.isEmpty)

            let session = AVCaptureSession()
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice(uniqueID: "test:raw"))))
            let output = AVCapturePhotoOutput()
            session.addOutput(output)
            #expect(output.availableRawPhotoPixelFormatTypes == [grbg.format])
            #expect(output.availableRawPhotoFileTypes == [.dng])
            session.startRunning()
            defer { session.stopRunning() }
            let settings = AVCapturePhotoSettings(rawPixelFormatType: grbg.format)
            settings.photoQualityPrioritization = .speed
            let resolved = ResolvedRecorder()
            output.capturePhoto(with: settings, delegate: resolved)
            eventually("the capture began") { resolved.dimensions.withLock { $0 } != nil }
            let dimensions = try #require(resolved.dimensions.withLock { $0 })
            #expect(dimensions.width == 128 && dimensions.height == 96)
        }
    }

    @Test("the default microphone is the one a provider prefers, else the first", arguments: [nil, "test:mic-2"])
    func preferredDefaultMicrophone(preferred: String?) throws {
        let provider = MicrophoneProvider(ids: ["test:mic-1", "test:mic-2"], preferred: preferred)
        try DeviceRegistry(providers: [provider]).withCurrent {
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            #expect(microphone.uniqueID == (preferred ?? "test:mic-1"))
            #expect(microphone.hasMediaType(.audio) && AVCaptureDevice.default(for: .video) == nil)
        }
    }
}

/// Microphones that are never started: enough to be listed and chosen as the default.
final class MicrophoneProvider: DeviceProvider {
    private let ids: [String]
    let preferredDefaultMicrophoneID: String?

    init(ids: [String], preferred: String?) {
        self.ids = ids
        preferredDefaultMicrophoneID = preferred
    }

    func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        ids.map(IdleMicrophone.init)
    }
}

/// A microphone whose streams always fail (the tests here only look it up).
final class IdleMicrophone: AudioCaptureBackend {
    let descriptor: DeviceDescriptor
    let audioFormat = CMFormatDescription(
        audio: AudioFormatStorage(
            asbd: .linearPCM(sampleRate: 48_000, channels: 1, float: false), layoutTag: kAudioChannelLayoutTag_Mono))

    init(uniqueID: String) {
        descriptor = DeviceDescriptor(
            uniqueID: uniqueID, modelID: "Idle", localizedName: "Idle Microphone", manufacturer: "Test", position: 0,
            deviceType: AVCaptureDevice.DeviceType.microphone.rawValue, formats: [], presetFormats: [:], defaultFormatIndex: 0,
            lensAperture: 0)
    }

    var isConnected: Bool { true }
    func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) { throw .streamFailed("a microphone") }
    func startAudio(sink: any AudioSink) throws(BackendError) { throw .streamFailed("never streams") }
    func update(_ configuration: StreamConfiguration) {}
    func apply(_ request: ControlRequest) {}
    func stop() {}
}

/// Notes the raw photo dimensions a capture resolved.
final class ResolvedRecorder: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let dimensions = Mutex<CMVideoDimensions?>(nil)

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        dimensions.withLock { $0 = resolvedSettings.rawPhotoDimensions }
    }
}

/// A third party's provider: fixed cameras, plus plugging and unplugging on request (its
/// hot-plug), reported as a real provider reports from its monitor thread.
final class SolidColorProvider: DeviceProvider {
    private let state: Mutex<(cameras: [SolidColorCamera], report: (@Sendable (DeviceChange) -> Void)?)>
    private let deniedNodes: [String]

    init(cameras: [SolidColorCamera], deniedNodes: [String] = []) {
        state = Mutex((cameras, nil))
        self.deniedNodes = deniedNodes
    }

    var cameras: [SolidColorCamera] { state.withLock { $0.cameras } }

    func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        state.withLock { state in
            state.report = report
            return state.cameras
        }
    }

    func inaccessibleNodes(_ media: DeviceMedia) -> [String] { media == .video ? deniedNodes : [] }

    func plug(_ camera: SolidColorCamera) {
        let report = state.withLock { state in
            state.cameras.append(camera)
            return state.report
        }
        Thread.detachNewThread { report?(.added([camera])) }
    }

    func unplug(_ camera: SolidColorCamera) {
        let report = state.withLock { $0.report }
        Thread.detachNewThread {
            camera.markGone()
            report?(.removed([camera]))
        }
    }
}

/// A third party's camera: solid-colour frames of whichever pixel format the session asks
/// for (BGRA or 420v), stamped on the host clock one frame duration apart, from a thread
/// of its own.
final class SolidColorCamera: CaptureBackend, DisconnectReporting, @unchecked Sendable {
    static let width = 64
    static let height = 48
    let descriptor: DeviceDescriptor
    private let connected = Atomic<Bool>(true)
    private let running = Mutex<(sink: any FrameSink, stop: StopFlag, done: DispatchSemaphore, thread: Thread)?>(nil)
    private let stamped = Mutex<[CMTime]>([])
    private let disconnectHandler = Mutex<(@Sendable () -> Void)?>(nil)

    final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// `raw`: the raw photo formats the camera declares, each with its mosaic's size.
    init(uniqueID: String, raw: [(format: OSType, size: PhotoSize)] = []) {
        let format = DeviceFormatSpec(
            width: Self.width, height: Self.height, pixelFormat: .bgra, frameRateRanges: [1...100], minISO: 100, maxISO: 100,
            minExposureDuration: 0.01, maxExposureDuration: 0.01, fieldOfView: 60, maxZoomFactor: 1)
        var descriptor = DeviceDescriptor(
            uniqueID: uniqueID, modelID: "Solid", localizedName: "Solid Colour Camera", manufacturer: "Test", position: 0,
            deviceType: AVCaptureDevice.DeviceType.external.rawValue, formats: [format],
            presetFormats: ["AVCaptureSessionPresetHigh": 0, "AVCaptureSessionPresetLow": 0, "AVCaptureSessionPresetMedium": 0],
            defaultFormatIndex: 0, lensAperture: 2)
        descriptor.supportsExposureControl = false
        descriptor.rawPhotoPixelFormats = raw.map(\.format)
        for (format, size) in raw { descriptor.rawPhotoSizes[format] = size }
        self.descriptor = descriptor
    }

    /// Every presentation time given to a frame so far.
    var stampedTimes: [CMTime] { stamped.withLock { $0 } }

    var isConnected: Bool { connected.load(ordering: .acquiring) }

    /// The colour every frame is filled with: B, G, R for BGRA; Y, Cb, Cr for 420v.
    static func colour(for format: PixelFormat) -> [UInt8] { format == .bgra ? [40, 160, 220] : [150, 60, 170] }

    /// The first pixel's components, read as `colour(for:)` lists them.
    static func colour(of buffer: CVPixelBuffer) -> [UInt8] {
        let luma = buffer.planeAddress(0).assumingMemoryBound(to: UInt8.self)
        guard buffer.format != .bgra else { return [luma[0], luma[1], luma[2]] }
        let chroma = buffer.planeAddress(1).assumingMemoryBound(to: UInt8.self)
        return [luma[0], chroma[0], chroma[1]]
    }

    func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        guard isConnected else { throw .deviceWasDisconnected }
        let format = configuration.pixelFormat
        guard format == .bgra || format == .yuv420BiPlanarVideoRange else { throw .streamFailed("unsupported pixel format") }
        let stop = StopFlag()
        let done = DispatchSemaphore(value: 0)
        let duration = configuration.minFrameDuration
        let start = CMClockGetTime(CMClockGetHostTimeClock()).convertScale(1_000_000_000, method: .default).value
        let step = duration.convertScale(1_000_000_000, method: .default).value
        let thread = Thread { [self] in
            var sequence: Int64 = 0
            while !stop.value.load(ordering: .acquiring) {
                let buffer = Self.filled(format)
                var metadata = FrameMetadata()
                metadata.sequence = sequence
                metadata.presentationTime = CMTime(value: start + sequence * step, timescale: 1_000_000_000)
                metadata.frameDuration = duration
                metadata.width = Self.width
                metadata.height = Self.height
                stamped.withLock { $0.append(metadata.presentationTime) }
                sink.backendDidCapture(buffer, metadata: metadata)
                sequence += 1
                // Real time: the next frame when the host clock reaches its stamp.
                let now = CMClockGetTime(CMClockGetHostTimeClock()).convertScale(1_000_000_000, method: .default).value
                let wait = start + sequence * step - now
                if wait > 0 { usleep(useconds_t(wait / 1000)) }
            }
            done.signal()
        }
        thread.name = "test.solid-colour"
        running.withLock { $0 = (sink, stop, done, thread) }
        thread.start()
    }

    func update(_ configuration: StreamConfiguration) {}
    func apply(_ request: ControlRequest) {}

    func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        disconnectHandler.withLock { $0 = handler }
    }

    /// When it returns the sink gets no more frames (unless called from the sink, on the
    /// camera's own thread, which then ends after the current frame).
    func stop() {
        guard let run = running.withLock({ run in defer { run = nil }; return run }) else { return }
        run.stop.value.store(true, ordering: .releasing)
        if Thread.current !== run.thread { run.done.wait() }
    }

    /// Unplugged and noticed by the camera itself (as a V4L2 camera's stream hears ENODEV):
    /// as `markGone`, then the handler the registry set.
    func vanish() {
        markGone()
        disconnectHandler.withLock { $0 }?()
    }

    /// Unplugged: streaming ends and the session hears `deviceWasDisconnected`.
    func markGone() {
        connected.store(false, ordering: .releasing)
        guard let run = running.withLock({ run in defer { run = nil }; return run }) else { return }
        run.stop.value.store(true, ordering: .releasing)
        run.done.wait()
        run.sink.backendDidFail(.deviceWasDisconnected)
    }

    private static func filled(_ format: PixelFormat) -> CVPixelBuffer {
        let buffer = CVPixelBuffer(format: format, width: width, height: height)
        let colour = colour(for: format)
        if format == .bgra {
            for y in 0..<height {
                let row = buffer.planeAddress(0).advanced(by: y * buffer.bytesPerRow(0)).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width { (row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]) = (colour[0], colour[1], colour[2], 255) }
            }
        } else {
            for y in 0..<height { memset(buffer.planeAddress(0).advanced(by: y * buffer.bytesPerRow(0)), Int32(colour[0]), width) }
            for y in 0..<height / 2 {
                let row = buffer.planeAddress(1).advanced(by: y * buffer.bytesPerRow(1)).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width / 2 { (row[2 * x], row[2 * x + 1]) = (colour[1], colour[2]) }
            }
        }
        return buffer
    }
}
