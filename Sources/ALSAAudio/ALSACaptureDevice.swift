/// One ALSA capture PCM (`hw:CARD,DEVICE`, or ALSA's `default` PCM) and what it takes.
package struct ALSACaptureDevice: Sendable, Equatable {
    /// A sample format the PCM can capture.
    package enum SampleFormat: String, Sendable, CaseIterable {
        case s16 = "S16_LE"
        case s24 = "S24_LE"
        case s24Packed = "S24_3LE"
        case s32 = "S32_LE"
        case float32 = "FLOAT_LE"
    }

    /// The card's index; -1 for ALSA's `default` PCM, which belongs to no one card.
    package var card: Int32
    package var device: Int32
    /// The card's ID (`/proc/asound/cards`' short name, e.g. "Dummy", "Loopback").
    package var cardID: String
    package var cardName: String
    /// The PCM's name as the driver gives it.
    package var pcmName: String
    /// Sample rates the hardware takes, hertz (drivers with a continuous range give both ends).
    package var sampleRates: ClosedRange<UInt32>
    package var channelCounts: ClosedRange<UInt32>
    package var formats: [SampleFormat]

    /// The ALSA device name to open.
    package var hardwareName: String { isDefault ? Self.defaultName : "hw:\(card),\(device)" }

    /// Whether this is ALSA's `default` PCM (what the configuration makes it: the first card
    /// through dsnoop, or PipeWire's or PulseAudio's ALSA plug-in).
    package var isDefault: Bool { card < 0 }

    /// ALSA's name of the default PCM.
    package static let defaultName = "default"

    /// ALSA's `default` PCM with the abilities a probe found.
    static func defaultPCM(rates: ClosedRange<UInt32>, channels: ClosedRange<UInt32>, formats: [SampleFormat]) -> ALSACaptureDevice {
        ALSACaptureDevice(
            card: -1, device: -1, cardID: defaultName, cardName: "Default Audio Device", pcmName: defaultName, sampleRates: rates,
            channelCounts: channels, formats: formats)
    }
}

/// Why a capture PCM could not be probed.
package enum ALSAProbeError: Error, Sendable, Equatable {
    /// Another program has the PCM open (`EBUSY`).
    case busy(String)
    /// This process may not open it (`EACCES`/`EPERM`: not in the `audio` group).
    case notAuthorized(String)
    /// Any other errno from the library.
    case failed(String, Int32)
}
