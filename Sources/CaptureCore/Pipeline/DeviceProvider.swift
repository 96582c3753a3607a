import Foundation

/// A backend module's devices as the registry sees them: it discovers them, follows them
/// through hot-plug and makes the ones a program asks for (libcamera's pipeline handlers,
/// which register themselves: the core names none).
///
/// Each backend module has one (`SimulatedDeviceProvider`, `V4L2DeviceProvider`,
/// `ALSADeviceProvider`, `FileDeckProvider`); OpenCapture's `DeviceRegistry` holds them in
/// order, and a registry's device list is the providers' devices in that order, hot-plugged
/// ones appended. Everything but `discover(reporting:)` has a default, so a provider of
/// fixed devices writes one method.
///
/// Threads: `discover(reporting:)` is called once, on the thread that first uses the
/// registry, before any other member. `report` may be called on any thread (a hot-plug
/// monitor's, a capture thread that saw the device vanish, the caller of a simulated
/// unplug) and must not be called with a lock of the provider held: the registry posts
/// notifications and calls into AVFoundation objects from it. The other members are called
/// on the thread of the API call that needs them.
package protocol DeviceProvider: AnyObject, Sendable {
    /// The devices there are now, in the order discovery lists them. `report` receives
    /// every later change.
    func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend]
    /// Starts following hot-plug. Called at every use of the registry; a provider that
    /// watches starts once (and may try again if it could not).
    func startWatching()
    /// Device nodes of this provider's kind that exist but that this process may not open
    /// (not in the `video` or `audio` group), for `AVCaptureDevice.authorizationStatus`.
    func inaccessibleNodes(_ media: DeviceMedia) -> [String]
    /// The unique ID of the microphone `AVCaptureDevice.default(for: .audio)` prefers when
    /// it is connected (ALSA's `default` PCM: the system's own choice), nil for no preference.
    var preferredDefaultMicrophoneID: String? { get }
    /// A new backend for a disconnected device of this provider's, as a re-plugged camera
    /// appears (same unique ID); nil when it cannot be re-made or is not this provider's.
    func reconnect(_ backend: any CaptureBackend) -> (any CaptureBackend)?
    /// The backend playing `url` (the file deck), made on first use and the same object
    /// for the same URL after; nil when this provider opens no URLs.
    func open(_ url: URL) throws -> (any CaptureBackend)?
}

extension DeviceProvider {
    package func startWatching() {}
    package func inaccessibleNodes(_ media: DeviceMedia) -> [String] { [] }
    package var preferredDefaultMicrophoneID: String? { nil }
    package func reconnect(_ backend: any CaptureBackend) -> (any CaptureBackend)? { nil }
    package func open(_ url: URL) throws -> (any CaptureBackend)? { nil }
}

/// Devices that came or went together (one hot-plug event may change several).
package enum DeviceChange: Sendable {
    /// New devices, appended to the registry's list (or put in the place of a disconnected
    /// device with the same unique ID); one whose unique ID is already connected is ignored.
    case added([any CaptureBackend])
    /// Devices found gone; each is already disconnected (`isConnected` false, a running
    /// stream ended with `deviceWasDisconnected`).
    case removed([any CaptureBackend])
}

/// Which kind of device node a question is about.
package enum DeviceMedia: Sendable, Equatable {
    case video
    case audio
}
