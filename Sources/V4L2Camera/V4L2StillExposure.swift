import CaptureCore

/// What a V4L2 still's metadata (and so its EXIF) says the device did, read from the
/// driver's controls when the still is taken rather than from what was last asked for:
/// a webcam in automatic exposure changes its exposure time and gain by itself.
///
/// - Exposure time: exposure_time_absolute (100 µs units). A device without that control
///   says nothing of its exposure; the still reports the frame interval, the longest
///   exposure a frame of the stream can have.
/// - ISO: iso_sensitivity (an integer menu of ISO × 1000) where the driver has it. Else the
///   gain control, taken as linear with the driver's default gain as ISO 100 (the ISO the
///   formats report when the device has no ISO control): ISO = 100 × gain / default. Else 100.
/// - White balance: locked when white_balance_automatic reads 0, continuous when 1.
package enum V4L2StillExposure {
    /// Overwrites the exposure, ISO and white-balance mode of `metadata` with the driver's
    /// current values; a control that cannot be read leaves the fallback above.
    package static func describe(_ metadata: inout FrameMetadata, controls: [V4L2ControlInfo], device: any V4L2ControlAccess) {
        func control(_ id: UInt32) -> V4L2ControlInfo? { controls.first { $0.id == id } }
        func read(_ info: V4L2ControlInfo) -> Int64? { try? device.value(of: info.id, is64: info.is64Bit) }

        if let info = control(V4L2ControlID.exposureTimeAbsolute), let units = read(info), units > 0 {
            metadata.exposureDuration = Double(units) / 10_000
        } else if metadata.frameDuration.isValid, metadata.frameDuration.value > 0 {
            metadata.exposureDuration = metadata.frameDuration.seconds
        }
        metadata.iso = iso(controls: controls, read: read) ?? 100
        if let info = control(V4L2ControlID.autoWhiteBalance), let automatic = read(info) {
            metadata.whiteBalanceState = automatic == 0 ? .locked : .continuous
        }
    }

    private static func iso(controls: [V4L2ControlInfo], read: (V4L2ControlInfo) -> Int64?) -> Float? {
        if let info = controls.first(where: { $0.id == V4L2ControlID.isoSensitivity }), let index = read(info),
           let entry = info.menu.first(where: { $0.index == index }), let value = Float(entry.name)
        {
            return value / 1000
        }
        if let info = controls.first(where: { $0.id == V4L2ControlID.gain }), info.defaultValue > 0, let gain = read(info) {
            return 100 * Float(gain) / Float(info.defaultValue)
        }
        return nil
    }
}
