import Foundation
import Testing

@testable import ALSAAudio

/// ALSA discovery against whatever sound cards the kernel has: none on a machine without
/// sound (then the scan must be empty), snd-dummy and snd-aloop in the test VM.
@Suite("ALSA discovery")
struct ALSADiscoveryTests {
    @Test("The hot-plug monitor rescans for capture PCM nodes and control nodes, not playback or timer nodes")
    func hotplugNodes() {
        #expect(ALSAHotplugMonitor.isRelevantNode("pcmC1D0c"))
        #expect(ALSAHotplugMonitor.isRelevantNode("controlC1"))
        #expect(!ALSAHotplugMonitor.isRelevantNode("pcmC1D0p"))
        #expect(!ALSAHotplugMonitor.isRelevantNode("timer"))
        #expect(!ALSAHotplugMonitor.isRelevantNode("seq"))
    }

    @Test("The scan lists the capture PCMs of the cards /proc/asound lists, with sane ranges")
    func scan() {
        let (devices, failures) = ALSADiscovery.scan()
        let cards = (try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8)) ?? ""
        if !FileManager.default.fileExists(atPath: "/proc/asound") || cards.contains("no soundcards") {
            #expect(devices.isEmpty && failures.isEmpty)
            return
        }
        for device in devices {
            #expect(device.sampleRates.lowerBound > 0)
            #expect(device.channelCounts.lowerBound >= 1)
            #expect(device.hardwareName == "hw:\(device.card),\(device.device)")
            #expect(cards.contains(device.cardID))
        }
    }

    @Test("A PCM that does not exist is a failure, not a device")
    func missingPCM() {
        switch ALSADiscovery.probe("hw:97,0") {
        case .success: Issue.record("hw:97,0 opened")
        case .failure(let error): #expect(error != .busy("hw:97,0"))
        }
    }
}
