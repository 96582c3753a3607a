/// Cameras that know their optics (the simulated ones): the facts a photo's EXIF and the
/// zoom factor shown to users need.
///
/// Threads: any.
package protocol LensDescribing: AnyObject, Sendable {
    /// The lens's focal length in millimetres when streaming `format`.
    func focalLength(for format: DeviceFormatSpec) -> Double
    /// What `displayVideoZoomFactorMultiplier` reports: a back camera's zoom relative to the
    /// wide camera's (0.5 for an ultra wide), 1 when there is nothing to relate it to.
    var displayVideoZoomFactorMultiplier: Double { get }
}
