import CaptureCore

extension ALSAMicrophone: AudioPortDescribing {
    /// `default` is the system's own choice of input, as the built-in microphone is an
    /// iPhone's; cards by their bus (sysfs), the Loopback and Dummy drivers as virtual.
    package var audioPortKind: AudioPortKind {
        switch bus {
        case _ where hardware.isDefault: .builtInMicrophone
        case _ where ["Loopback", "Dummy"].contains(hardware.cardID): .virtual
        case "usb": .usb
        case "pci": .pci
        default: .lineIn
        }
    }

    /// One ALSA period, as asked for.
    package var framesPerBuffer: Int { Self.preferredPeriod }
}
