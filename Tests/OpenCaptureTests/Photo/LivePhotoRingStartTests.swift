import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture

/// An output that notes, when `startRunning()` has started the devices (still under the
/// session's lock, before anything queued for after the unlock), whether a photo output's
/// Live Photo ring takes frames and sound.
private final class StartProbe: AVCaptureOutput, RouteConsumer, @unchecked Sendable {
    weak var photo: AVCapturePhotoOutput?
    let ringActiveAtStart = Mutex<Bool?>(nil)

    var soleKindInSession: String? { "start probe" }

    func frameForm(for connection: AVCaptureConnection) -> FrameForm? { .asCaptured }

    func sessionDidStart(releasing lock: ConfigurationLock) {
        let active = photo?.livePhotos.isActive
        ringActiveAtStart.withLock { $0 = active }
    }
}

@Suite("Live Photo ring at start", .serialized)
struct LivePhotoRingStartTests {
    @Test("the Live Photo ring takes frames and sound from the moment the devices stream, so the first Live Photo after startRunning has the microphone's sound")
    func ringActiveWhenDevicesStart() throws {
        let rig = try TestRig(preset: .cif352x288)
        let microphone = try #require(AVCaptureDevice.default(for: .audio))
        let sound = try #require(microphone.microphoneSimulation)
        sound.pacing = .virtual
        defer {
            rig.stop()
            sound.pacing = .realTime
        }
        // The order of the flaky Live Photo sound test: microphone, photo output, then Live Photos on.
        rig.session.addInput(try AVCaptureDeviceInput(device: microphone))
        let probe = StartProbe()
        rig.session.addOutput(probe)
        let photo = AVCapturePhotoOutput()
        rig.session.addOutput(photo)
        probe.photo = photo
        photo.isLivePhotoCaptureEnabled = true
        #expect(!photo.livePhotos.isActive, "not running yet")
        rig.session.startRunning()
        // Before, the ring turned on only after startRunning() let go of its lock: the camera
        // streamed meanwhile (seconds ahead in virtual time) while the microphone waited for a
        // consumer, so a Live Photo taken then could be complete before any sound came.
        #expect(probe.ringActiveAtStart.withLock { $0 } == true)
        #expect(photo.audioPace == .own, "the microphone is paced by the ring from its first buffer")
        rig.stop()
        #expect(!photo.livePhotos.isActive, "a stopped session frees the ring")
    }
}
