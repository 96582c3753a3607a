/// One ALSA capture PCM (`hw:CARD,DEVICE`) and what its hardware takes.
package struct ALSACaptureDevice: Sendable, Equatable {
    /// A sample format the PCM can capture.
    package enum SampleFormat: String, Sendable, CaseIterable {
        case s16 = "S16_LE"
        case s24 = "S24_LE"
        case s24Packed = "S24_3LE"
        case s32 = "S32_LE"
        case float32 = "FLOAT_LE"
    }

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
    package var hardwareName: String { "hw:\(card),\(device)" }
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
