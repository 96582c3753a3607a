import Foundation

extension AVCaptureDevice {
    /// The checked form of setting `activeFormat` (Linux addition): throws what iOS raises.
    public func setActiveFormat(_ format: Format) throws(AVCaptureException) {
        try changeProperty(
            "setActiveFormat:",
            announcing: ["activeFormat", "activeVideoMinFrameDuration", "activeVideoMaxFrameDuration", "maxAvailableVideoZoomFactor"],
            supported: formats.indices.contains(format.index) && formats[format.index] === format,
            unsupported: "Unsupported format (\(format)) - use -formats to discover valid formats"
        ) {
            applyFormat(index: format.index)
            for session in sessions { session.deviceDidChangeActiveFormat(self) }
            return nil
        }
    }

    /// Switches the format without the checks (the session uses it for presets).
    package func applyFormat(index: Int) {
        let changed = core.format.select(index, colorSpaces: descriptor.formats[index].colorSpaces)
        let hadMaxExposure = core.exposure.resetMaxExposureDuration()
        // The inputs' ports now carry another format, and say so as iOS does.
        if changed {
            for port in core.livePorts { postOnMainQueue(AVCaptureInput.Port.formatDescriptionDidChangeNotification, object: port) }
        }
        // activeMaxExposureDuration resets with the format, as on iOS.
        if hadMaxExposure { submit(ControlChange(ControlRequest(id: 0, activeMaxExposureDuration: 0))) }
    }

    /// Restores the default frame durations (when the input joins a session).
    package func resetFrameDurations() { core.format.resetFrameDurations() }

    /// The frame duration a format uses by default: 1/30 s where the format allows it.
    package func defaultFrameDuration(for format: Format) -> CMTime {
        let thirty = CMTime(value: 1, timescale: 30)
        if format.videoSupportedFrameRateRanges.contains(where: { $0.contains(duration: thirty) }) { return thirty }
        let best = format.videoSupportedFrameRateRanges.max { $0.maxFrameRate < $1.maxFrameRate }
        return best?.minFrameDuration ?? thirty
    }

    var activeVideoMinFrameDurationBacking: CMTime {
        let requested = core.format.minFrameDuration
        return requested.isValid ? requested : defaultFrameDuration(for: activeFormat)
    }

    var activeVideoMaxFrameDurationBacking: CMTime {
        let requested = core.format.maxFrameDuration
        return requested.isValid ? requested : max(defaultFrameDuration(for: activeFormat), activeVideoMinFrameDuration)
    }

    /// The checked form of setting `activeVideoMinFrameDuration` (Linux addition).
    public func setActiveVideoMinFrameDuration(_ duration: CMTime) throws(AVCaptureException) {
        let selector = "setActiveVideoMinFrameDuration:"
        try changeProperty(selector, announcing: ["activeVideoMinFrameDuration"]) { () throws(AVCaptureException) -> ControlChange? in
            if duration.isValid { try validateFrameDuration(duration, selector: selector) }
            core.format.minFrameDuration = duration.isValid ? duration : .invalid
            // Keep min <= max, as iOS does, by moving the other end.
            if duration.isValid, activeVideoMaxFrameDuration < duration { core.format.maxFrameDuration = duration }
            for session in sessions { session.deviceDidChangeFrameDurations(self) }
            return nil
        }
    }

    /// The checked form of setting `activeVideoMaxFrameDuration` (Linux addition).
    public func setActiveVideoMaxFrameDuration(_ duration: CMTime) throws(AVCaptureException) {
        let selector = "setActiveVideoMaxFrameDuration:"
        try changeProperty(selector, announcing: ["activeVideoMaxFrameDuration"]) { () throws(AVCaptureException) -> ControlChange? in
            if duration.isValid { try validateFrameDuration(duration, selector: selector) }
            core.format.maxFrameDuration = duration.isValid ? duration : .invalid
            if duration.isValid, activeVideoMinFrameDuration > duration { core.format.minFrameDuration = duration }
            for session in sessions { session.deviceDidChangeFrameDurations(self) }
            return nil
        }
    }

    private func validateFrameDuration(_ duration: CMTime, selector: String) throws(AVCaptureException) {
        guard activeFormat.videoSupportedFrameRateRanges.contains(where: { $0.contains(duration: duration) }) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector,
                    "Unsupported frame duration - use -activeFormat.videoSupportedFrameRateRanges to discover valid ranges"))
        }
    }

    /// The format keys, in the order the device's key table lists them.
    static func formatObservableKeys<Root: AVCaptureDevice>(_: Root.Type) -> [ObservableKey<Root>] {
        [
            ObservableKey(\Root.activeFormat, "activeFormat"),
            ObservableKey(\Root.activeVideoMinFrameDuration, "activeVideoMinFrameDuration"),
            ObservableKey(\Root.activeVideoMaxFrameDuration, "activeVideoMaxFrameDuration"),
            ObservableKey(\Root.activeColorSpace, "activeColorSpace"),
        ]
    }

    /// The stream configuration the device's current settings ask for.
    package func streamConfiguration(pixelFormat: PixelFormat) -> StreamConfiguration {
        var configuration = StreamConfiguration(
            formatIndex: activeFormat.index, minFrameDuration: activeVideoMinFrameDuration,
            maxFrameDuration: activeVideoMaxFrameDuration, pixelFormat: pixelFormat)
        configuration.videoHDR = videoHDRMode
        configuration.colorSpace = activeColorSpace.rawValue
        return configuration
    }
}
