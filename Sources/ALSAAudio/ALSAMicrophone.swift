import CALSA
import CaptureCore
import Foundation
import Glibc

/// A real microphone: one ALSA capture PCM as an `AudioCaptureBackend`.
///
/// It delivers 16-bit signed native-endian interleaved linear PCM, as iPhones' microphones
/// do: at 48 kHz when the card takes it (else the rate of its range nearest 48 kHz), mono
/// when the card can record one channel (else its fewest channels), in buffers of one ALSA
/// period (1024 frames asked for; the driver may round). It opens `hw:C,D` when the
/// hardware takes 16-bit samples and `plughw:C,D` (ALSA's converting plug-in) otherwise.
///
/// The unique ID is `alsa:CARDID,DEVICE` (the card's ID, e.g. "Loopback", not its index,
/// which changes as cards come and go), so it stays the same across re-plugging.
///
/// ALSA's `default` PCM is a microphone too, `alsa:default` (`defaultUniqueID`): what
/// PipeWire and PulseAudio users reach through their ALSA plug-in, and on a machine without
/// a sound server the first card through dsnoop. It opens `default` (`plug:default` if the
/// configuration's PCM takes no 16-bit samples) and has no device node of its own.
package final class ALSAMicrophone: AudioCaptureBackend, @unchecked Sendable {
    package static let preferredRate: UInt32 = 48_000
    package static let preferredPeriod = 1024

    package let descriptor: DeviceDescriptor
    package let audioFormat: CMAudioFormatDescription
    /// What the card offered when it was found.
    package let hardware: ALSACaptureDevice
    /// The ALSA PCM name the stream opens.
    package let pcmName: String
    package let sampleRate: UInt32
    package let channels: UInt32
    private let state = Mutex(State())

    private struct State {
        var connected = true
        var stream: ALSACaptureStream?
    }

    package init(_ hardware: ALSACaptureDevice) {
        self.hardware = hardware
        sampleRate = min(max(Self.preferredRate, hardware.sampleRates.lowerBound), hardware.sampleRates.upperBound)
        channels = min(max(1, hardware.channelCounts.lowerBound), hardware.channelCounts.upperBound)
        if hardware.isDefault {
            pcmName = hardware.formats.contains(.s16) ? ALSACaptureDevice.defaultName : "plug:\(ALSACaptureDevice.defaultName)"
        } else {
            let plug = hardware.formats.contains(.s16) ? "hw" : "plughw"
            pcmName = "\(plug):\(hardware.card),\(hardware.device)"
        }
        let name = hardware.isDefault || hardware.pcmName.isEmpty || hardware.pcmName == hardware.cardName
            ? hardware.cardName : "\(hardware.cardName) (\(hardware.pcmName))"
        descriptor = DeviceDescriptor(
            uniqueID: Self.uniqueID(of: hardware), modelID: "ALSA \(hardware.cardID)",
            localizedName: name, manufacturer: "ALSA", position: 0, deviceType: "AVCaptureDeviceTypeMicrophone", formats: [],
            presetFormats: [:], defaultFormatIndex: 0, lensAperture: 0)
        let asbd = AudioStreamBasicDescription.linearPCM(sampleRate: Double(sampleRate), channels: Int(channels), float: false)
        let tag: AudioChannelLayoutTag =
            switch channels {
            case 1: kAudioChannelLayoutTag_Mono
            case 2: kAudioChannelLayoutTag_Stereo
            default: kAudioChannelLayoutTag_DiscreteInOrder | channels
            }
        audioFormat = CMFormatDescription(audio: AudioFormatStorage(asbd: asbd, layoutTag: tag))
    }

    package static func uniqueID(cardID: String, device: Int32) -> String { "alsa:\(cardID),\(device)" }

    /// The unique ID a capture PCM's microphone has.
    package static func uniqueID(of hardware: ALSACaptureDevice) -> String {
        hardware.isDefault ? defaultUniqueID : uniqueID(cardID: hardware.cardID, device: hardware.device)
    }

    /// The unique ID of ALSA's `default` PCM as a microphone.
    package static let defaultUniqueID = "alsa:default"

    /// The PCM's device node, which devtmpfs removes when the card goes away; nil for
    /// `default`, which has none of its own.
    package var nodePath: String? {
        hardware.isDefault ? nil : "\(ALSAHotplugMonitor.directory)/pcmC\(hardware.card)D\(hardware.device)c"
    }

    package var isConnected: Bool { state.withLock { $0.connected } }

    /// The bus the card sits on ("usb", "pci", "platform", ...), from sysfs; "" when unknown
    /// (and for `default`).
    package var bus: String {
        guard !hardware.isDefault else { return "" }
        let link = "/sys/class/sound/card\(hardware.card)/device/subsystem"
        return ((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) as NSString?)?.lastPathComponent ?? ""
    }

    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        throw .streamFailed("a microphone captures no video")
    }

    /// A microphone has no per-frame settings to change.
    package func update(_ configuration: StreamConfiguration) {}
    /// A microphone takes no camera controls (the device API reports them unsupported).
    package func apply(_ request: ControlRequest) {}

    package func checkAvailability() throws(BackendError) {
        let (connected, streaming) = state.withLock { ($0.connected, $0.stream != nil) }
        guard connected else { throw .deviceWasDisconnected }
        // This process streams from it already (another input of it): not another application.
        guard !streaming else { return }
        switch ALSADiscovery.probe(pcmName) {
        case .success: return
        case .failure(.busy): throw .deviceInUse
        case .failure(.notAuthorized(let name)): throw .notAuthorized("This process may not open \(name) (not in the audio group?).")
        case .failure(.failed(_, let code)) where code == ENOENT || code == ENODEV: throw .deviceWasDisconnected
        case .failure(.failed(let name, let code)): throw .streamFailed("\(name): \(String(cString: snd_strerror(-code)))")
        }
    }

    package func startAudio(sink: any AudioSink) throws(BackendError) {
        let (connected, running) = state.withLock { ($0.connected, $0.stream != nil) }
        guard connected else { throw .deviceWasDisconnected }
        guard !running else { return }
        let stream = try ALSACaptureStream.open(
            name: pcmName, node: nodePath, rate: sampleRate, channels: channels, period: Self.preferredPeriod, format: audioFormat, sink: sink)
        state.withLock { $0.stream = stream }
        stream.start()
    }

    package func stop() {
        let stream = state.withLock { s -> ALSACaptureStream? in
            defer { s.stream = nil }
            return s.stream
        }
        stream?.stop()
    }

    /// The card went away (its node vanished): a running stream ends with
    /// `deviceWasDisconnected` if it has not already, and the device stays disconnected.
    package func markDisconnected() {
        let stream = state.withLock { s -> ALSACaptureStream? in
            s.connected = false
            defer { s.stream = nil }
            return s.stream
        }
        stream?.fail(.deviceWasDisconnected)
    }
}
