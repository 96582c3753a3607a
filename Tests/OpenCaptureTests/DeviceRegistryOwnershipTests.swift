import Foundation
import SimulatedCamera
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// A device belongs to the registry that made it: what it looks up itself (constituents, its
/// reconnection) stays there on any thread, outside `withCurrent` too; and the registry's
/// own bookkeeping of providers' reports (late registration, hot-plug reports).
@Suite("Device registry: a device's own registry, late providers, hot-plug reports", .serialized)
struct DeviceRegistryOwnershipTests {
    @Test("a virtual device's constituents and active constituent, read on another queue, are its own registry's devices")
    func constituentsOnAnotherQueue() throws {
        let registry = DeviceRegistry(providers: [SimulatedDeviceProvider()])
        let (dual, wide) = try registry.withCurrent {
            (try #require(AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back)),
             try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)))
        }
        // A queue's thread has no task-local registry: `current` there is `shared`.
        let read = Mutex<(constituents: [AVCaptureDevice], active: AVCaptureDevice?)>(([], nil))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "test.registry.reader").async {
            read.withLock { $0 = (dual.constituentDevices, dual.activePrimaryConstituent) }
            done.signal()
        }
        done.wait()
        let (constituents, active) = read.withLock { $0 }
        #expect(constituents.count == 2)
        #expect(constituents.allSatisfy { registry.device(uniqueID: $0.uniqueID) === $0 }, "the test registry's objects")
        #expect(constituents.allSatisfy { DeviceRegistry.shared.device(uniqueID: $0.uniqueID) !== $0 }, "not the process's")
        let activeDevice = try #require(active)
        #expect(constituents.contains { $0 === activeDevice })
        // A discovery list never pairs a virtual device with its own constituent.
        #expect(AVCaptureDevice.DiscoverySession.multiCamSets(of: [dual, wide]).isEmpty)
    }

    @Test("a simulated camera reconnected outside withCurrent comes back in its own registry, not the process's")
    func reconnectOutsideWithCurrent() throws {
        let registry = DeviceRegistry(providers: [SimulatedDeviceProvider()])
        let back = try registry.withCurrent { try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)) }
        let processBack = DeviceRegistry.shared.device(uniqueID: back.uniqueID)
        let simulation = try #require(back.simulation)
        simulation.disconnect()
        #expect(registry.device(uniqueID: back.uniqueID) == nil)
        let fresh = try #require(simulation.reconnect())
        #expect(fresh !== back && fresh.isConnected)
        #expect(registry.device(uniqueID: back.uniqueID) === fresh)
        #expect(DeviceRegistry.shared.device(uniqueID: back.uniqueID) === processBack)
        #expect(DeviceRegistry.shared.connected.filter { $0.uniqueID == back.uniqueID }.count == (processBack == nil ? 0 : 1),
                "the process's registry keeps one device per unique ID")
    }

    @Test("a provider registered after the registry's first use has its cameras announced and listed")
    func lateRegistrationIsAnnounced() {
        let registry = DeviceRegistry(providers: [SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:early")])])
        registry.withCurrent {
            let discovery = AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
            #expect(discovery.devices.map(\.uniqueID) == ["test:early"])
            let came = Mutex<[String]>([])
            let observer = NotificationCenter.default.addObserver(forName: AVCaptureDevice.wasConnectedNotification, object: nil, queue: nil) { note in
                came.withLock { $0.append((note.object as? AVCaptureDevice)?.uniqueID ?? "?") }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let recorder = KVORecorder()
            let observation = discovery.observe(\.devices, options: [.new]) { _, change in recorder.record(change) }
            defer { observation.invalidate() }

            registry.register(SolidColorProvider(cameras: [SolidColorCamera(uniqueID: "test:late")]))
            // Filtered by ID: an earlier test's announcement may still be on the main queue.
            eventually("the late provider's camera was announced") { came.withLock { $0 }.contains("test:late") }
            #expect(came.withLock { $0 }.filter { $0.hasPrefix("test:") } == ["test:late"], "announced once, the early camera not again")
            discovery.keyValueObservers.changeQueue.sync {}
            #expect(recorder.calls.contains { $0.new?.contains("[test:late]") == true }, "observers of devices heard it")
            #expect(discovery.devices.map(\.uniqueID) == ["test:early", "test:late"])
        }
    }

    @Test("a provider's report is handled without starting the provider's watching from inside its callback")
    func reportDoesNotStartWatching() {
        let provider = ReportingProvider()
        let registry = DeviceRegistry(providers: [provider])
        provider.report(.added([SolidColorCamera(uniqueID: "test:reported")]))
        #expect(provider.watchStarts == 0)
        #expect(registry.connected.map(\.uniqueID) == ["test:reported"])
        #expect(provider.watchStarts == 1, "a use of the registry starts it")
    }
}

/// A provider with no devices of its own that reports what the test tells it to, on the
/// caller's thread, and counts `startWatching` calls.
final class ReportingProvider: DeviceProvider {
    private let reporter = Mutex<(@Sendable (DeviceChange) -> Void)?>(nil)
    private let starts = Atomic<Int>(0)

    var watchStarts: Int { starts.load(ordering: .relaxed) }

    func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] {
        reporter.withLock { $0 = report }
        return []
    }

    func startWatching() { starts.add(1, ordering: .relaxed) }

    func report(_ change: DeviceChange) { reporter.withLock { $0 }?(change) }
}
