import CALSA
import Glibc

/// Finds the capture PCMs of the ALSA sound cards and their formats, rates and channels.
///
/// Cards come from `snd_card_next`, each card's PCM devices from its control interface
/// (`snd_ctl_pcm_next_device`), and a device counts when it has a capture stream
/// (`snd_ctl_pcm_info` for `SND_PCM_STREAM_CAPTURE`). Its abilities come from opening
/// `hw:C,D` without blocking and reading the full hardware configuration space.
package enum ALSADiscovery {
    /// The capture PCMs, in card and device order, and the ones that could not be probed.
    package static func scan() -> (devices: [ALSACaptureDevice], failures: [ALSAProbeError]) {
        var devices: [ALSACaptureDevice] = []
        var failures: [ALSAProbeError] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0 && card >= 0 {
            var control: OpaquePointer?
            guard snd_ctl_open(&control, "hw:\(card)", 0) == 0, let control else { continue }
            defer { snd_ctl_close(control) }
            var cardInfo: OpaquePointer?
            guard snd_ctl_card_info_malloc(&cardInfo) == 0, let cardInfo else { continue }
            defer { snd_ctl_card_info_free(cardInfo) }
            guard snd_ctl_card_info(control, cardInfo) == 0 else { continue }
            let cardID = String(cString: snd_ctl_card_info_get_id(cardInfo))
            let cardName = String(cString: snd_ctl_card_info_get_name(cardInfo))
            var device: Int32 = -1
            while snd_ctl_pcm_next_device(control, &device) == 0 && device >= 0 {
                guard let pcmName = captureName(control: control, device: device) else { continue }
                switch probe("hw:\(card),\(device)") {
                case .success(let abilities):
                    devices.append(
                        ALSACaptureDevice(
                            card: card, device: device, cardID: cardID, cardName: cardName, pcmName: pcmName,
                            sampleRates: abilities.rates, channelCounts: abilities.channels, formats: abilities.formats))
                case .failure(let error):
                    failures.append(error)
                }
            }
        }
        return (devices, failures)
    }

    /// ALSA's `default` PCM, when it opens for capture (a card exists, or a sound server's
    /// plug-in is configured and answers), with what a probe of it finds; else why not.
    package static func scanDefault() -> Result<ALSACaptureDevice, ALSAProbeError> {
        probe(ALSACaptureDevice.defaultName).map {
            ALSACaptureDevice.defaultPCM(rates: $0.rates, channels: $0.channels, formats: $0.formats)
        }
    }

    /// The PCM's name if the device has a capture stream, else nil.
    private static func captureName(control: OpaquePointer, device: Int32) -> String? {
        var info: OpaquePointer?
        guard snd_pcm_info_malloc(&info) == 0, let info else { return nil }
        defer { snd_pcm_info_free(info) }
        snd_pcm_info_set_device(info, UInt32(device))
        snd_pcm_info_set_subdevice(info, 0)
        snd_pcm_info_set_stream(info, SND_PCM_STREAM_CAPTURE)
        guard snd_ctl_pcm_info(control, info) == 0 else { return nil }
        return String(cString: snd_pcm_info_get_name(info))
    }

    struct Abilities {
        var rates: ClosedRange<UInt32>
        var channels: ClosedRange<UInt32>
        var formats: [ALSACaptureDevice.SampleFormat]
    }

    /// Opens a PCM for capture without blocking and reads what its hardware takes.
    static func probe(_ name: String) -> Result<Abilities, ALSAProbeError> {
        ALSALibraryErrors.quietly { probeLoudly(name) }
    }

    private static func probeLoudly(_ name: String) -> Result<Abilities, ALSAProbeError> {
        var pcm: OpaquePointer?
        let opened = snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard opened == 0, let pcm else {
            switch -opened {
            case EBUSY: return .failure(.busy(name))
            case EACCES, EPERM: return .failure(.notAuthorized(name))
            default: return .failure(.failed(name, -opened))
            }
        }
        defer { snd_pcm_close(pcm) }
        var params: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&params) == 0, let params else { return .failure(.failed(name, ENOMEM)) }
        defer { snd_pcm_hw_params_free(params) }
        let any = snd_pcm_hw_params_any(pcm, params)
        guard any >= 0 else { return .failure(.failed(name, -any)) }
        var direction: Int32 = 0
        var minRate: UInt32 = 0
        var maxRate: UInt32 = 0
        var minChannels: UInt32 = 0
        var maxChannels: UInt32 = 0
        guard snd_pcm_hw_params_get_rate_min(params, &minRate, &direction) == 0,
            snd_pcm_hw_params_get_rate_max(params, &maxRate, &direction) == 0,
            snd_pcm_hw_params_get_channels_min(params, &minChannels) == 0,
            snd_pcm_hw_params_get_channels_max(params, &maxChannels) == 0, minRate <= maxRate, minChannels <= maxChannels
        else { return .failure(.failed(name, EINVAL)) }
        let formats = ALSACaptureDevice.SampleFormat.allCases.filter {
            snd_pcm_hw_params_test_format(pcm, params, $0.alsaFormat) == 0
        }
        return .success(Abilities(rates: minRate...maxRate, channels: minChannels...maxChannels, formats: formats))
    }
}

extension ALSACaptureDevice.SampleFormat {
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24: SND_PCM_FORMAT_S24_LE
        case .s24Packed: SND_PCM_FORMAT_S24_3LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        }
    }
}
