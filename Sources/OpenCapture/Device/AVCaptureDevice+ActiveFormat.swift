import Foundation

extension AVCaptureDevice {
    var activeFormatBacking: Format {
        get { formats[core.state.withLock { $0.activeFormatIndex }] }
        set { enforce { try setActiveFormat(newValue) } }
    }

    /// The checked form of setting `activeFormat` (Linux addition): throws what iOS raises.
    public func setActiveFormat(_ format: Format) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["activeFormat", "activeVideoMinFrameDuration", "activeVideoMaxFrameDuration", "maxAvailableVideoZoomFactor"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setActiveFormat:")
        guard formats.indices.contains(format.index), formats[format.index] === format else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", "setActiveFormat:", "Unsupported format (\(format)) - use -formats to discover valid formats"))
        }
        applyFormat(index: format.index)
        for session in sessions { session.deviceDidChangeActiveFormat(self) }
    }

    /// Switches the format without the checks (the session uses it for presets).
    package func applyFormat(index: Int) {
        let (hadMaxExposure, changed) = core.state.withLock { state -> (Bool, Bool) in
            let changed = state.activeFormatIndex != index
            state.activeFormatIndex = index
            state.requestedMinFrameDuration = .invalid
            state.requestedMaxFrameDuration = .invalid
            // A new format turns manual video HDR off, and falls back to sRGB if it lacks the colour space.
            state.videoHDREnabled = false
            if !(descriptor.formats[index].colorSpaces.contains(state.activeColorSpace)) { state.activeColorSpace = 0 }
            defer { state.activeMaxExposureDuration = .invalid }
            return (state.activeMaxExposureDuration.isValid, changed)
        }
        // The inputs' ports now carry another format, and say so as iOS does.
        if changed {
            for port in core.livePorts { postOnMainQueue(AVCaptureInput.Port.formatDescriptionDidChangeNotification, object: port) }
        }
        // activeMaxExposureDuration resets with the format, as on iOS.
        if hadMaxExposure { backend.apply(ControlRequest(id: core.controls.enqueue(nil), activeMaxExposureDuration: 0)) }
    }

    /// Restores the default frame durations (when the input joins a session).
    package func resetFrameDurations() {
        core.state.withLock {
            $0.requestedMinFrameDuration = .invalid
            $0.requestedMaxFrameDuration = .invalid
        }
    }

    /// The frame duration a format uses by default: 1/30 s where the format allows it.
    package func defaultFrameDuration(for format: Format) -> CMTime {
        let thirty = CMTime(value: 1, timescale: 30)
        if format.videoSupportedFrameRateRanges.contains(where: { $0.contains(duration: thirty) }) { return thirty }
        let best = format.videoSupportedFrameRateRanges.max { $0.maxFrameRate < $1.maxFrameRate }
        return best?.minFrameDuration ?? thirty
    }

    var activeVideoMinFrameDurationBacking: CMTime {
        get {
            let requested = core.state.withLock { $0.requestedMinFrameDuration }
            return requested.isValid ? requested : defaultFrameDuration(for: activeFormat)
        }
        set { enforce { try setActiveVideoMinFrameDuration(newValue) } }
    }

    var activeVideoMaxFrameDurationBacking: CMTime {
        get {
            let requested = core.state.withLock { $0.requestedMaxFrameDuration }
            return requested.isValid ? requested : max(defaultFrameDuration(for: activeFormat), activeVideoMinFrameDuration)
        }
        set { enforce { try setActiveVideoMaxFrameDuration(newValue) } }
    }

    /// The checked form of setting `activeVideoMinFrameDuration` (Linux addition).
    public func setActiveVideoMinFrameDuration(_ duration: CMTime) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["activeVideoMinFrameDuration"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setActiveVideoMinFrameDuration:")
        if duration.isValid {
            try validateFrameDuration(duration, selector: "setActiveVideoMinFrameDuration:")
        }
        core.state.withLock {
            $0.requestedMinFrameDuration = duration.isValid ? duration : .invalid
            // Keep min <= max, as iOS does, by moving the other end.
            if duration.isValid, $0.requestedMaxFrameDuration.isValid, $0.requestedMaxFrameDuration < duration {
                $0.requestedMaxFrameDuration = duration
            }
        }
        if duration.isValid, activeVideoMaxFrameDuration < duration {
            core.state.withLock { $0.requestedMaxFrameDuration = duration }
        }
        for session in sessions { session.deviceDidChangeFrameDurations(self) }
    }

    /// The checked form of setting `activeVideoMaxFrameDuration` (Linux addition).
    public func setActiveVideoMaxFrameDuration(_ duration: CMTime) throws(AVCaptureException) {
        let observed = KeyValueChange.willChange(self, keys: ["activeVideoMaxFrameDuration"])  // KVO: prior now, after on return
        defer { observed?.didChange() }
        try requireLock("setActiveVideoMaxFrameDuration:")
        if duration.isValid {
            try validateFrameDuration(duration, selector: "setActiveVideoMaxFrameDuration:")
        }
        core.state.withLock { $0.requestedMaxFrameDuration = duration.isValid ? duration : .invalid }
        if duration.isValid, activeVideoMinFrameDuration > duration {
            core.state.withLock { $0.requestedMinFrameDuration = duration }
        }
        for session in sessions { session.deviceDidChangeFrameDurations(self) }
    }

    private func validateFrameDuration(_ duration: CMTime, selector: String) throws(AVCaptureException) {
        guard activeFormat.videoSupportedFrameRateRanges.contains(where: { $0.contains(duration: duration) }) else {
            throw AVCaptureException(
                .invalidArgument,
                selectorReason("AVCaptureDevice", selector,
                    "Unsupported frame duration - use -activeFormat.videoSupportedFrameRateRanges to discover valid ranges"))
        }
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
