import Foundation
import Testing
@testable import OpenCapture

@Suite("KVO of state that follows the session", .serialized)
struct KVOSessionStateTests {
    @Test("a connection's isActive notifies on startRunning and stopRunning, on the calling thread before they return")
    func connectionActiveFollowsRunning() throws {
        let rig = try TestRig(preset: .cif352x288)
        let active = KVORecorder()
        let observation = rig.connection.observe(\.isActive, options: [.old, .new]) { _, change in active.record(change) }
        rig.session.startRunning()
        #expect(active.calls.map(\.new) == ["true"])
        rig.stop()
        #expect(active.calls.map(\.new) == ["true", "false"])
        #expect(active.calls.map(\.old) == ["false", "true"])
        #expect(active.calls.allSatisfy { $0.queue == "caller" && !$0.isPrior })
        observation.invalidate()
    }

    @Test("a preview layer's connection, isPreviewing and videoGravity are key-value observable")
    func previewLayerKeys() throws {
        let device = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        device.simulation?.pacing = .virtual
        defer { device.simulation?.pacing = .realTime }
        let session = AVCaptureSession()
        session.sessionPreset = .cif352x288
        let layer = AVCaptureVideoPreviewLayer(session: session)
        let connection = KVORecorder()
        let previewing = KVORecorder()
        let gravity = KVORecorder()
        let observations = [
            layer.observe(\.connection, options: .new) { _, change in connection.record(change) },
            layer.observe(\.isPreviewing, options: .new) { _, change in previewing.record(change) },
            layer.observe(\.videoGravity, options: [.old, .new]) { _, change in gravity.record(change) },
        ]
        session.addInput(try AVCaptureDeviceInput(device: device))  // the waiting layer gets its connection
        #expect(connection.calls.count == 1 && connection.calls.first?.new != nil)
        session.startRunning()
        session.stopRunning()
        #expect(previewing.calls.map(\.new) == ["true", "false"])
        layer.videoGravity = .resizeAspectFill
        #expect(gravity.calls.count == 1 && gravity.calls.first?.new?.contains("AspectFill") == true)
        layer.session = nil
        #expect(connection.calls.count == 2)
        observations.forEach { $0.invalidate() }
    }
}
