/// Control IDs from <linux/v4l2-controls.h> that the backend maps to Apple's API (the
/// header's macros are plain numbers, listed here so the mapping reads by name). Controls
/// without an Apple counterpart (brightness, gain, …) are reached by name through
/// `AVCaptureDevice.linuxControls`.
package enum V4L2ControlID {
    /// Boolean: the driver balances white itself.
    package static let autoWhiteBalance: UInt32 = 0x0098_090C
    /// Integers without unit (gain relative to the default).
    package static let redBalance: UInt32 = 0x0098_090E
    package static let blueBalance: UInt32 = 0x0098_090F
    package static let horizontalFlip: UInt32 = 0x0098_0914
    /// Integer, driver units (read for a still's ISO, see `V4L2StillExposure`).
    package static let autoGain: UInt32 = 0x0098_0912
    package static let gain: UInt32 = 0x0098_0913
    /// Kelvin.
    package static let whiteBalanceTemperature: UInt32 = 0x0098_091A
    /// Menu: AUTO 0, MANUAL 1, SHUTTER_PRIORITY 2, APERTURE_PRIORITY 3.
    package static let autoExposure: UInt32 = 0x009A_0901
    /// 100 µs units.
    package static let exposureTimeAbsolute: UInt32 = 0x009A_0902
    /// Integer menu, 0.001 EV.
    package static let autoExposureBias: UInt32 = 0x009A_0913
    /// Integer menu of ISO values; with its MANUAL 0 / AUTO 1 switch.
    package static let isoSensitivity: UInt32 = 0x009A_0917
    package static let isoSensitivityAuto: UInt32 = 0x009A_0918

    /// Integer, driver units, larger = nearer.
    package static let focusAbsolute: UInt32 = 0x009A_090A
    /// Boolean: continuous autofocus.
    package static let focusAutomaticContinuous: UInt32 = 0x009A_090C
    /// Integer, driver units.
    package static let zoomAbsolute: UInt32 = 0x009A_090D
    /// Button: one autofocus run.
    package static let autoFocusStart: UInt32 = 0x009A_091C
    /// Menu: NONE 0, FLASH 1, TORCH 2.
    package static let flashLEDMode: UInt32 = 0x009C_0901
    /// Integer, driver units (mA where the driver knows).
    package static let flashTorchIntensity: UInt32 = 0x009C_0908

    // auto_exposure menu entries.
    package static let exposureAuto: Int64 = 0
    package static let exposureManual: Int64 = 1
    package static let exposureAperturePriority: Int64 = 3
}
