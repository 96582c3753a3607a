// NSKeyValueObserving.h (Foundation) as capture code uses it: AVCam observes
// `systemPreferredCamera` with the string form on the class object and with `observe` on
// the metatype. One difference from iOS: Swift on Linux has no Objective-C runtime, so the
// observer declares `NSKeyValueObserving` and implements `observeValue` without `override`
// and `super` (docs/ARCHITECTURE.md, "Key-value observing").
import AVFoundation
import Foundation
import Synchronization
import Testing

/// AVCam's observer of the system-preferred camera, less `override`/`super`.
final class PreferredCameraObserver: NSObject, NSKeyValueObserving, @unchecked Sendable {
    let seen = Mutex<[(String?, Bool, String?)]>([])

    func observeValue(forKeyPath keyPath: String?, of object: Any?, change: [NSKeyValueChangeKey: Any]?,
                      context: UnsafeMutableRawPointer?) {
        let isClass = object as? AVCaptureDevice.Type == AVCaptureDevice.self
        let new = (change?[.newKey] as? AVCaptureDevice)?.uniqueID
        seen.withLock { $0.append((keyPath, isClass, new)) }
    }
}

/// The string form and the typed form on the class object; compiled, never called.
func spellNSKeyValueObserving(_ observer: PreferredCameraObserver) {
    AVCaptureDevice.self.addObserver(observer, forKeyPath: "systemPreferredCamera", options: [.new], context: nil)
    AVCaptureDevice.self.removeObserver(observer, forKeyPath: "systemPreferredCamera")
    AVCaptureDevice.self.addObserver(observer, forKeyPath: "userPreferredCamera", options: [.initial, .old, .new, .prior], context: nil)
    AVCaptureDevice.self.removeObserver(observer, forKeyPath: "userPreferredCamera", context: nil)
    let observation: NSKeyValueObservation = AVCaptureDevice.self.observe(\.systemPreferredCamera, options: [.new]) { _, change in
        let camera: AVCaptureDevice?? = change.newValue
        _ = camera
    }
    observation.invalidate()
}

@Suite("NSKeyValueObserving spelling", .serialized)
struct NSKeyValueObservingSpellingTests {
    @Test("AVCaptureDevice.self.addObserver(_:forKeyPath:) tells the observer of the class object, until removeObserver")
    func classStringForm() throws {
        let front = try #require(AVCaptureDevice(uniqueID: "sim:front-wide"))
        let back = try #require(AVCaptureDevice(uniqueID: "sim:back-wide"))
        AVCaptureDevice.userPreferredCamera = back
        defer { AVCaptureDevice.userPreferredCamera = back }
        let observer = PreferredCameraObserver()
        AVCaptureDevice.self.addObserver(observer, forKeyPath: "systemPreferredCamera", options: [.initial, .new], context: nil)
        AVCaptureDevice.userPreferredCamera = front
        AVCaptureDevice.self.removeObserver(observer, forKeyPath: "systemPreferredCamera")
        AVCaptureDevice.userPreferredCamera = back
        let seen = observer.seen.withLock { $0 }
        let keyPaths = seen.map { $0.0 }, ofClass = seen.map { $0.1 }, cameras = seen.map { $0.2 }
        #expect(keyPaths == ["systemPreferredCamera", "systemPreferredCamera"])
        #expect(ofClass == [true, true])
        #expect(cameras == ["sim:back-wide", "sim:front-wide"])
    }
}
