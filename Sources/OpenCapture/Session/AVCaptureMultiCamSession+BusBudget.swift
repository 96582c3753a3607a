import CaptureCore

extension AVCaptureMultiCamSession {
    /// The busiest bus bandwidth domain's use: for each domain (a USB bus or root port, as
    /// the cameras' backends report it through `BusBandwidthReporting`), the cameras' bytes
    /// per second summed over the domain's periodic budget; the largest of those. 0 when no
    /// camera reports a bus (simulated cameras, vivid). Part of `hardwareCost`.
    var busShare: Double {
        var used: [String: (bytes: Double, budget: Double)] = [:]
        for input in deviceInputs {
            guard let bus = input.device.backend as? any BusBandwidthReporting,
                let use = bus.busBandwidth(formatIndex: input.device.activeFormat.index, framesPerSecond: Self.frameRate(of: input.device))
            else { continue }
            let sum = used[use.domain]?.bytes ?? 0
            used[use.domain] = (sum + use.bytesPerSecond, use.budget)
        }
        return used.values.map { $0.budget > 0 ? $0.bytes / $0.budget : .infinity }.max() ?? 0
    }
}

extension AVCaptureDevice {
    /// The least of its shared bus a camera can take: its format that needs the fewest bytes
    /// a second at that format's lowest frame rate; nil for a device on no shared bus.
    var cheapestBusUse: BusBandwidthUse? {
        guard let bus = backend as? any BusBandwidthReporting else { return nil }
        return formats.compactMap { format -> BusBandwidthUse? in
            let rate = format.videoSupportedFrameRateRanges.map(\.minFrameRate).min() ?? 0
            return rate > 0 ? bus.busBandwidth(formatIndex: format.index, framesPerSecond: rate) : nil
        }.min { $0.bytesPerSecond < $1.bytesPerSecond }
    }
}
