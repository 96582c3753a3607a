/// What a device's stream takes of a bus shared with other devices: a USB camera's
/// isochronous stream out of its USB bandwidth domain's periodic budget.
package struct BusBandwidthUse: Sendable, Equatable {
    /// The bandwidth domain: devices whose `domain` is equal share one `budget`
    /// (a USB 2 EHCI bus; an xHCI root port and everything behind it).
    package var domain: String
    /// Bytes per second the domain grants periodic (isochronous and interrupt) transfers.
    package var budget: Double
    /// Bytes per second the device's stream needs at the format and rate asked about.
    package var bytesPerSecond: Double

    package init(domain: String, budget: Double, bytesPerSecond: Double) {
        self.domain = domain
        self.budget = budget
        self.bytesPerSecond = bytesPerSecond
    }
}

/// Devices that stream over a shared bus whose bandwidth limits how many can stream at once
/// (V4L2 cameras on USB). A multi-cam session's `hardwareCost` adds up each domain's
/// cameras; a device without it (a simulated camera, vivid, a platform camera) is limited
/// by the pixel-rate rule alone.
///
/// Threads: any.
package protocol BusBandwidthReporting: AnyObject, Sendable {
    /// The bus share of the format at `formatIndex` (of the descriptor's formats) streamed at
    /// `framesPerSecond`; nil when the device is on no bus this knows (not USB).
    func busBandwidth(formatIndex: Int, framesPerSecond: Double) -> BusBandwidthUse?
}
