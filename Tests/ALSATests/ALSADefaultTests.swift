import Foundation
import Testing

@testable import ALSAAudio
@testable import OpenCapture

/// ALSA's `default` PCM as the microphone `alsa:default`, against whatever this machine has:
/// no sound card here on the host (then it must not exist, and the simulated microphone is
/// the default), snd-aloop as card 0 in the test VM (`ALSADriverTests` captures through it).
@Suite("ALSA's default PCM")
struct ALSADefaultTests {
    @Test("alsa:default exists exactly when `default` opens for capture, and is then default(for: .audio)")
    func defaultMicrophone() throws {
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
        let noCard = !FileManager.default.fileExists(atPath: "/proc/asound") || cards.contains("no soundcards")
        let probe = ALSADiscovery.scanDefault()
        let device = AVCaptureDevice(uniqueID: "alsa:default")
        if noCard && !Self.soundServerConfigured {
            // Without a card or sound server, ALSA's configuration finds no card 0.
            guard case .failure(.failed(let name, _)) = probe else {
                Issue.record("default probed as \(probe) without a sound card")
                return
            }
            #expect(name == "default")
            #expect(device == nil)
            #expect(AVCaptureDevice.default(for: .audio)?.uniqueID == "sim:microphone")
            return
        }
        if case .success(let found) = probe {
            #expect(found.isDefault && found.hardwareName == "default")
            let microphone = try #require(device)
            #expect(microphone.deviceType == .microphone && microphone.hasMediaType(.audio))
            #expect(AVCaptureDevice.default(for: .audio) == microphone)
            let asbd = try #require(microphone.activeFormat.formatDescription.audioStreamBasicDescription)
            let rate = UInt32(asbd.mSampleRate)
            #expect(found.sampleRates.contains(rate) && found.channelCounts.contains(asbd.mChannelsPerFrame))
            #expect(rate == 48_000 || !found.sampleRates.contains(48_000))
        } else if case .failure(.failed) = probe {
            #expect(device == nil)
        }
    }

    /// Whether ALSA's configuration may route `default` somewhere without a card: a user or
    /// system asoundrc, or a configuration snippet (PipeWire's and PulseAudio's plug-ins
    /// install theirs in alsa.conf.d).
    static var soundServerConfigured: Bool {
        let files = ["/etc/asound.conf", NSHomeDirectory() + "/.asoundrc"]
        let snippets = ["/etc/alsa/conf.d", "/usr/share/alsa/alsa.conf.d"].flatMap {
            (try? FileManager.default.contentsOfDirectory(atPath: $0)) ?? []
        }
        return files.contains(where: FileManager.default.fileExists(atPath:)) || !snippets.isEmpty
    }
}
