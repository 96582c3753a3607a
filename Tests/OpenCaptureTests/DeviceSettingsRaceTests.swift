import Foundation
import Synchronization
import Testing
@testable import OpenCapture

/// Two threads setting one property at once: the checked setter numbers, records and hands
/// over each request as one step, so the device's requested value is the request the
/// backend received last, and the backend receives the requests in the order of their ids.
@Suite("Device settings: concurrent setters of one property")
struct DeviceSettingsRaceTests {
    @Test("two threads setting videoZoomFactor 100,000 times each: the backend gets the ids in order and its last zoom is the device's")
    func racingSettersAgreeWithTheBackend() throws {
        let backend = RequestLoggingCamera()
        let device = AVCaptureDevice(core: DeviceCore(backend: backend))
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        let perThread = 100_000
        let failures = Atomic<Int>(0)
        let start = DispatchGroup()
        let done = DispatchGroup()
        start.enter()
        for factor in [CGFloat(2), CGFloat(3)] {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                for _ in 0..<perThread {
                    do throws(AVCaptureException) { try device.setVideoZoomFactor(factor) } catch { failures.add(1, ordering: .relaxed) }
                }
                done.leave()
            }
        }
        start.leave()
        done.wait()

        #expect(failures.load(ordering: .relaxed) == 0)
        let received = backend.received
        #expect(received.count == 2 * perThread)
        let outOfOrder = zip(received, received.dropFirst()).filter { $0.id >= $1.id }.count
        #expect(outOfOrder == 0, "requests reached the backend in the order of their ids")
        let last = try #require(received.last)
        #expect(last.zoom == .set(factor: Double(device.videoZoomFactor)), "the zoom the device reports is the one the camera got last")
        #expect(device.core.zoom.lens.zoomRequest == last.id, "the device recorded the id the camera got last")
    }
}

/// A camera that never streams and logs every control request it is given, in arrival order.
final class RequestLoggingCamera: CaptureBackend {
    let descriptor: DeviceDescriptor
    private let log = Mutex<[ControlRequest]>([])

    init() {
        let format = DeviceFormatSpec(
            width: 64, height: 48, pixelFormat: .bgra, frameRateRanges: [1...30], minISO: 100, maxISO: 100,
            minExposureDuration: 0.01, maxExposureDuration: 0.01, fieldOfView: 60, maxZoomFactor: 4)
        descriptor = DeviceDescriptor(
            uniqueID: "test:request-log", modelID: "Log", localizedName: "Request Log Camera", manufacturer: "Test", position: 0,
            deviceType: AVCaptureDevice.DeviceType.external.rawValue, formats: [format], presetFormats: [:], defaultFormatIndex: 0,
            lensAperture: 2)
    }

    /// Every request given so far, in the order `apply` got them.
    var received: [ControlRequest] { log.withLock { $0 } }

    var isConnected: Bool { true }
    func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) { throw .streamFailed("never streams") }
    func update(_ configuration: StreamConfiguration) {}
    func apply(_ request: ControlRequest) { log.withLock { $0.append(request) } }
    func stop() {}
}
