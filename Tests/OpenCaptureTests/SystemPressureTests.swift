import Foundation
import Synchronization
import Testing
import TestSupport
@testable import OpenCapture
@testable import SimulatedCamera

/// Model seconds per second of stream: one 60 fps frame is 20 model seconds, so 4K60 climbs
/// through each pressure level in four frames or more and reaches shutdown in about 22.
private let fastForward = 1200.0

@Suite("System pressure", .serialized)
struct SystemPressureTests {
    @Test("levels and factors carry Apple's raw values")
    func rawValues() {
        typealias State = AVCaptureDevice.SystemPressureState
        #expect(State.Level.nominal.rawValue == "AVCaptureSystemPressureLevelNominal")
        #expect(State.Level.fair.rawValue == "AVCaptureSystemPressureLevelFair")
        #expect(State.Level.serious.rawValue == "AVCaptureSystemPressureLevelSerious")
        #expect(State.Level.critical.rawValue == "AVCaptureSystemPressureLevelCritical")
        #expect(State.Level.shutdown.rawValue == "AVCaptureSystemPressureLevelShutdown")
        #expect(State.Factors.systemTemperature.rawValue == 1)
        #expect(State.Factors.peakPower.rawValue == 2)
        #expect(State.Factors.depthModuleTemperature.rawValue == 4)
        #expect(State.Factors.cameraTemperature.rawValue == 8)
        #expect(AVCaptureSession.InterruptionReason.videoDeviceNotAvailableDueToSystemPressure.rawValue == 5)
    }

    @Test("levels rise at their thresholds and fall only past the hysteresis")
    func hysteresis() {
        #expect(ThermalModel.level(for: 39.9, from: 0) == 0)
        #expect(ThermalModel.level(for: 40, from: 0) == 1)
        #expect(ThermalModel.level(for: 71, from: 0) == 4)
        #expect(ThermalModel.level(for: 68, from: 4) == 4)
        #expect(ThermalModel.level(for: 66.9, from: 4) == 3)
        #expect(ThermalModel.level(for: 46, from: 4) == 1)
    }

    @Test("a light workload (640x480 at 30 fps) stays nominal")
    func lightWorkloadStaysNominal() throws {
        let rig = try TestRig(preset: .vga640x480)
        let camera = try #require(rig.device.simulation?.camera)
        camera.resetThermalState()
        camera.thermalTimeScale = fastForward
        defer { camera.resetThermalState() }
        rig.session.startRunning()
        let frames = try rig.collector.waitForFrames(60)  // 2 s of stream, 40 model minutes
        rig.stop()
        #expect(frames.allSatisfy { $0.metadata?.systemPressureLevel == 0 && $0.metadata?.systemPressureFactors == 0 })
        #expect(rig.device.systemPressureState.level == .nominal)
        #expect(camera.thermal.temperature < ThermalModel.ambient + 2)
    }

    @Test("rest cools a hot camera back to nominal")
    func restCools() async throws {
        let camera = try #require(AVCaptureDevice(uniqueID: "sim:back-wide")?.simulation?.camera)
        camera.resetThermalState()
        defer { camera.resetThermalState() }
        // Heat it as a 4K60 stream would, for 400 model seconds, without rendering.
        camera.thermal.beginHeating(ThermalModel.Workload(pixelsPerSecond: 3840 * 2160 * 60))
        camera.thermal.advance(streamSeconds: 400)
        camera.thermal.endHeating()
        let hot = camera.thermal.temperature
        #expect(camera.thermal.pressure.level == 3)
        #expect(camera.thermal.pressure.factors == AVCaptureDevice.SystemPressureState.Factors.systemTemperature.rawValue)
        camera.thermalTimeScale = 6000  // 10 model minutes per 0.1 s
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        eventually("the idle camera cooled to nominal", within: .seconds(10)) { device.systemPressureState.level == .nominal }
        #expect(camera.thermal.temperature < hot - 20)
        #expect(device.systemPressureState.factors.isEmpty)
    }

    @Test("sustained 4K60 climbs to shutdown, interrupts the session, and resumes when cool")
    func sustained4K60() async throws {
        let rig = try TestRig(preset: .hd4K3840x2160)
        let camera = try #require(rig.device.simulation?.camera)
        camera.resetThermalState()
        camera.thermalTimeScale = fastForward
        defer { camera.resetThermalState() }
        try rig.device.lockForConfiguration()
        rig.device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 60)
        rig.device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: 60)
        rig.device.unlockForConfiguration()
        let events = Mutex<[(name: Notification.Name, reason: Int?, level: String?)]>([])
        let observers = [AVCaptureSession.wasInterruptedNotification, AVCaptureSession.interruptionEndedNotification].map { name in
            NotificationCenter.default.addObserver(forName: name, object: rig.session, queue: nil) { note in
                let reason = (note.userInfo?[AVCaptureSessionInterruptionReasonKey] as? NSNumber)?.intValue
                let state = note.userInfo?[AVCaptureSessionInterruptionSystemPressureStateKey] as? AVCaptureSystemPressureState
                events.withLock { $0.append((note.name, reason, state?.level.rawValue)) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }

        rig.session.startRunning()
        eventually("the session was interrupted") { events.withLock { $0.count } >= 1 }
        camera.thermalTimeScale = 1  // hold it hot while we look
        // The stream stopped before the notification was posted; what it had queued for the
        // delegate has run once the delegate's queue is through.
        #expect(!camera.isStreaming)
        rig.collector.queue.sync {}
        let first = events.withLock { $0 }.first
        #expect(first?.name == AVCaptureSession.wasInterruptedNotification)
        #expect(first?.reason == 5)
        #expect(first?.level == AVCaptureDevice.SystemPressureState.Level.shutdown.rawValue)
        #expect(rig.session.isInterrupted && rig.session.isRunning)
        #expect(rig.device.systemPressureState.level == .shutdown)

        // The climb: levels in order, each seen, first frame nominal.
        let climb = rig.collector.frames.compactMap { $0.metadata?.systemPressureLevel }
        #expect(climb.first == 0)
        #expect(zip(climb, climb.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(Set(climb) == [0, 1, 2, 3, 4])
        for level in 1...4 {
            if let index = climb.firstIndex(of: level) {
                print("4K60 reaches level \(level) at \(Double(index) / 60 * fastForward) model s")
            }
        }

        // While interrupted no frames arrive: the camera stays stopped while it is hot.
        let mark = rig.collector.frameCount
        #expect(!camera.isStreaming)
        rig.collector.queue.sync {}
        #expect(rig.collector.frameCount == mark)
        #expect(events.withLock { $0.count } == 1)

        // Cooling ends the interruption and frames flow again.
        camera.thermalTimeScale = fastForward
        eventually("the interruption ended") { events.withLock { $0.count } >= 2 }
        #expect(events.withLock { $0 }.dropFirst().first?.name == AVCaptureSession.interruptionEndedNotification)
        let resumed = try rig.collector.waitForFrames(mark + 5)
        #expect(resumed[mark...].allSatisfy { ($0.metadata?.systemPressureLevel ?? 4) <= 3 })
        rig.stop()
        #expect(!rig.session.isInterrupted && !rig.session.isRunning)
    }
}
