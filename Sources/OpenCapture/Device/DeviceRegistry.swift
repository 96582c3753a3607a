import ALSAAudio
import Foundation
import SimulatedCamera
import Synchronization
import V4L2Camera

/// Every device the process knows, one `AVCaptureDevice` per unique ID.
///
/// Simulated cameras come first (they play the built-in cameras, so `default(for:)` is the
/// simulated back camera, as on an iPhone), then the simulated microphone; real V4L2 cameras
/// and ALSA microphones follow (ALSA's `default` PCM first, then the cards' capture PCMs),
/// found at first use and then followed through hot-plug (inotify on /dev and /dev/snd).
/// The default audio device is ALSA's `default` when it opens for capture, else the
/// simulated microphone (`defaultMicrophone`).
package final class DeviceRegistry: Sendable {
    package static let shared = DeviceRegistry()

    private let devices: Mutex<[AVCaptureDevice]>
    /// Video nodes this process may not open (not in the `video` group).
    private let deniedPaths: Mutex<[String]>
    /// ALSA PCMs this process may not open (not in the `audio` group).
    private let deniedSoundPCMs: Mutex<[String]>
    private let monitor = Mutex<V4L2HotplugMonitor?>(nil)
    private let soundMonitor = Mutex<ALSAHotplugMonitor?>(nil)
    /// File decks made by `AVCaptureDevice.fileDeck(url:)` (not discovered, found by unique ID).
    let decks = Mutex<[AVCaptureDevice]>([])

    private init() {
        // The physical cameras, then the virtual devices made of the back ones.
        let cameras = SimulatedCameraCatalog.builtInCameras() + SimulatedCameraCatalog.virtualCameras()
        let simulated = cameras.map { AVCaptureDevice(core: DeviceCore(backend: $0)) }
            + [AVCaptureDevice(core: DeviceCore(backend: SimulatedMicrophone()))]
        let scan = V4L2Discovery.scan()
        let sound = ALSADiscovery.scan()
        let systemDefault = try? ALSADiscovery.scanDefault().get()
        let microphones = ([systemDefault].compactMap { $0 } + sound.devices).map {
            AVCaptureDevice(core: DeviceCore(backend: ALSAMicrophone($0)))
        }
        deniedSoundPCMs = Mutex(sound.failures.compactMap { if case .notAuthorized(let name) = $0 { name } else { nil } })
        devices = Mutex(simulated + scan.cameras.map(DeviceRegistry.makeDevice) + microphones)
        deniedPaths = Mutex(scan.deniedPaths)
    }

    /// A device object for a V4L2 camera that announces its own disconnection.
    private static func makeDevice(_ camera: V4L2Camera) -> AVCaptureDevice {
        let device = AVCaptureDevice(core: DeviceCore(backend: camera))
        camera.onDisconnect { [weak device] in
            guard let device else { return }
            device.announceDisconnect()
            DeviceClassProperties.shared.camerasChanged()
            postOnMainQueue(AVCaptureDevice.wasDisconnectedNotification, object: device)
        }
        return device
    }

    /// Connected devices, in registry order.
    package var connected: [AVCaptureDevice] {
        startWatching()
        return devices.withLock { $0 }.filter(\.isConnected)
    }

    /// What `AVCaptureDevice.default(for: .audio)` is without a preferred input: the
    /// microphone of ALSA's `default` PCM (the system's choice, through PipeWire or
    /// PulseAudio where they run) when it exists, else the first microphone (the simulated one).
    package var defaultMicrophone: AVCaptureDevice? {
        let microphones = connected.filter { $0.hasMediaType(.audio) }
        return microphones.first { $0.uniqueID == ALSAMicrophone.defaultUniqueID } ?? microphones.first
    }

    /// Device nodes that exist but that this process may not open.
    package var inaccessibleNodes: [String] { deniedPaths.withLock { $0 } }
    /// ALSA capture PCMs that exist but that this process may not open.
    package var inaccessibleSoundPCMs: [String] { deniedSoundPCMs.withLock { $0 } }

    /// Replaces a disconnected simulated camera by a new device object with the same
    /// unique ID, as a re-plugged camera appears on iOS.
    package func reconnect(_ old: AVCaptureDevice) -> AVCaptureDevice? {
        guard !old.isConnected, let camera = old.backend as? SimulatedCamera else { return nil }
        let fresh = AVCaptureDevice(core: DeviceCore(backend: SimulatedCamera(model: camera.model)))
        fresh.simulation?.seed = camera.seed
        replaceOrAppend(fresh, uniqueID: old.uniqueID)
        return fresh
    }

    package func device(uniqueID: String) -> AVCaptureDevice? {
        startWatching()
        if uniqueID.hasPrefix("file:"), let deck = decks.withLock({ $0.first { $0.uniqueID == uniqueID } }) { return deck }
        return devices.withLock { $0 }.first { $0.uniqueID == uniqueID && $0.isConnected }
    }

    private func replaceOrAppend(_ fresh: AVCaptureDevice, uniqueID: String) {
        devices.withLock { all in
            if let index = all.firstIndex(where: { $0.uniqueID == uniqueID && !$0.isConnected }) {
                all[index] = fresh
            } else {
                all.append(fresh)
            }
        }
    }

    // MARK: Hot-plug

    private func startWatching() {
        monitor.withLock { monitor in
            guard monitor == nil else { return }
            monitor = V4L2HotplugMonitor { [self] change in handle(change) }
        }
        soundMonitor.withLock { monitor in
            guard monitor == nil else { return }
            monitor = ALSAHotplugMonitor { [self] in soundCardsChanged() }
        }
    }

    /// A capture node came or went: microphones whose node is gone are disconnected (a
    /// stream still running ends with `deviceWasDisconnected`), and new capture PCMs become
    /// devices; `default` is gone when it no longer opens (busy is still there) and comes
    /// when it opens again. Runs on the ALSA monitor's thread.
    private func soundCardsChanged() {
        let known = devices.withLock { all in all.filter { $0.isConnected && $0.backend is ALSAMicrophone } }
        var removed: [AVCaptureDevice] = []
        for device in known {
            guard let microphone = device.backend as? ALSAMicrophone else { continue }
            if let node = microphone.nodePath {
                guard !FileManager.default.fileExists(atPath: node) else { continue }
            } else {
                switch ALSADiscovery.scanDefault() {
                case .success, .failure(.busy), .failure(.notAuthorized): continue
                case .failure(.failed): break
                }
            }
            microphone.markDisconnected()
            device.announceDisconnect()
            postOnMainQueue(AVCaptureDevice.wasDisconnectedNotification, object: device)
            removed.append(device)
        }
        if !removed.isEmpty {
            DiscoverySessions.shared.devicesChanged()
            AVAudioSession.sharedInstance().microphonesChanged(added: [], removed: removed)
        }
        // A new card's nodes may refuse opens until the driver and udev are done with them.
        for _ in 0..<20 {
            let scan = ALSADiscovery.scan()
            var added: [AVCaptureDevice] = []
            let systemDefault = device(uniqueID: ALSAMicrophone.defaultUniqueID) == nil ? try? ALSADiscovery.scanDefault().get() : nil
            let candidates = [systemDefault].compactMap { $0 } + scan.devices
            for found in candidates where device(uniqueID: ALSAMicrophone.uniqueID(of: found)) == nil {
                let device = AVCaptureDevice(core: DeviceCore(backend: ALSAMicrophone(found)))
                replaceOrAppend(device, uniqueID: device.uniqueID)
                postOnMainQueue(AVCaptureDevice.wasConnectedNotification, object: device)
                added.append(device)
            }
            if !added.isEmpty {
                DiscoverySessions.shared.devicesChanged()
                AVAudioSession.sharedInstance().microphonesChanged(added: added, removed: [])
            }
            let denied = scan.failures.compactMap { if case .notAuthorized(let name) = $0 { name } else { nil } }
            deniedSoundPCMs.withLock { $0 = denied }
            guard !denied.isEmpty else { return }
            usleep(50_000)
        }
    }

    private func handle(_ change: V4L2HotplugMonitor.Change) {
        switch change {
        case .removed(let path):
            let gone = devices.withLock { all in
                all.filter { ($0.backend as? V4L2Camera)?.path == path && $0.isConnected }
            }
            for device in gone { (device.backend as? V4L2Camera)?.markDisconnected() }
        case .added(let path):
            let known = devices.withLock { all in
                all.contains { ($0.backend as? V4L2Camera)?.path == path && $0.isConnected }
            }
            guard !known else { return }
            // A fresh node may refuse opens until the driver and udev are done with it.
            for _ in 0..<20 {
                do {
                    guard let camera = try V4L2Camera(path: path) else { return }
                    let device = DeviceRegistry.makeDevice(camera)
                    guard self.device(uniqueID: device.uniqueID) == nil else { return }
                    deniedPaths.withLock { $0.removeAll { $0 == path } }
                    replaceOrAppend(device, uniqueID: device.uniqueID)
                    DeviceClassProperties.shared.camerasChanged()
                    postOnMainQueue(AVCaptureDevice.wasConnectedNotification, object: device)
                    return
                } catch where error.code == EACCES || error.code == EPERM {
                    deniedPaths.withLock { if !$0.contains(path) { $0.append(path) } }
                } catch {}
                usleep(50_000)
            }
        }
    }
}
