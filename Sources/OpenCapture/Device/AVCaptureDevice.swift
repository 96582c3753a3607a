import Foundation
import Synchronization

/// A camera: a simulated one, or a real one through V4L2.
///
/// There is one instance per device for the life of the process; `init?(uniqueID:)`,
/// `default(for:)` and discovery sessions hand out the same object.
///
/// Threads: every member may be used from any thread. Completion handlers of control
/// changes (exposure, white balance, focus) run on a serial queue of the device's, in
/// order, never on the capture thread; `wasConnected`/`wasDisconnected` and subject-area
/// notifications are posted on the main queue.
open class AVCaptureDevice: NSObject, @unchecked Sendable {
    /// The device's shared state; every `AVCaptureDevice` object for one device shares it.
    package let core: DeviceCore

    package var backend: any CaptureBackend { core.backend }
    package var descriptor: DeviceDescriptor { core.descriptor }

    /// All formats the device can stream, in the device's order.
    open var formats: [Format] { core.formats }

    package init(core: DeviceCore) {
        self.core = core
        super.init()
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVCaptureDevice else { return false }
        return other.core === core
    }

    open override var hash: Int { ObjectIdentifier(core).hashValue }

    // MARK: Identity

    /// Stays the same across reconnections and restarts.
    open var uniqueID: String { descriptor.uniqueID }
    /// The same for every device of one model.
    open var modelID: String { descriptor.modelID }
    /// A name to show people, e.g. "Back Camera".
    open var localizedName: String { descriptor.localizedName }
    /// The maker's name.
    open var manufacturer: String { descriptor.manufacturer }
    /// Where the camera faces.
    open var position: Position { Position(rawValue: descriptor.position) ?? .unspecified }
    /// The kind of camera.
    open var deviceType: DeviceType { DeviceType(rawValue: descriptor.deviceType) }
    /// Whether the device is attached; once false it never becomes true again.
    open var isConnected: Bool { backend.isConnected }
    /// Whether the device is suspended (a closed laptop lid); never on Linux so far.
    open var isSuspended: Bool { false }
    /// The lens's fixed f-number.
    open var lensAperture: Float { descriptor.lensAperture }

    /// Whether the device captures the media type (cameras video, microphones audio).
    open func hasMediaType(_ mediaType: AVMediaType) -> Bool { mediaType == (core.isAudio ? .audio : .video) }

    /// Whether a session with this device as input can use the preset (a microphone
    /// works with every preset, as on iOS: presets choose video formats).
    open func supportsSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool {
        core.isAudio || preset == .inputPriority || descriptor.presetFormats[preset.rawValue] != nil
    }

    package func formatIndex(for preset: AVCaptureSession.Preset) -> Int? {
        descriptor.presetFormats[preset.rawValue]
    }

    open override var description: String {
        "<\(core.isAudio ? "AVCaptureFigAudioDevice" : "AVCaptureFigVideoDevice"): \(localizedName) [\(uniqueID)]>"
    }

    // MARK: Configuration lock

    /// Takes the lock that setters of device properties need.
    ///
    /// Locks nest within the process; each call needs one `unlockForConfiguration()`.
    open func lockForConfiguration() throws {
        guard isConnected else {
            throw AVError(.deviceNotConnected, "The device \(localizedName) is no longer connected.")
        }
        core.configurationLocks.withLock { $0 += 1 }
    }

    /// Releases a lock taken with `lockForConfiguration()`.
    open func unlockForConfiguration() {
        core.configurationLocks.withLock { $0 = max(0, $0 - 1) }
    }

    /// Whether this process holds the configuration lock (Linux addition).
    public var isLockedForConfiguration: Bool { core.configurationLocks.withLock { $0 > 0 } }

    func requireLock(_ selector: String) throws(AVCaptureException) {
        guard isLockedForConfiguration else {
            throw AVCaptureException(
                .generic,
                selectorReason("AVCaptureDevice", selector, "May not be called without first successfully calling -lockForConfiguration:"))
        }
    }

    /// The exposure time of the newest frame.
    open var exposureDuration: CMTime {
        let seconds = lastFrameMetadata.exposureDuration
        return seconds > 0 ? CMTime(seconds: seconds, preferredTimescale: 1_000_000_000) : CMTime(value: 1, timescale: 30)
    }

    /// The ISO of the newest frame.
    open var iso: Float {
        let value = lastFrameMetadata.iso
        return value > 0 ? value : activeFormat.minISO
    }

    // MARK: Members implemented in the extension files (open here, so subclasses can override them)
    //
    // Objective-C imports every member of Apple's class as `open`, and apps' test doubles
    // and wrappers override them; Swift cannot override what an extension declares, so each
    // member Apple's AVCaptureDevice.h declares is declared here and forwards to its
    // `…Backing` implementation in the extension file named in its MARK (+Torch, +Focus, ...).

    // MARK: +ActiveFormat

    /// The format the device streams in. Setting it needs the configuration lock, must be
    /// one of `formats`, switches the session's preset to `.inputPriority` and resets the
    /// frame durations.
    open var activeFormat: Format {
        get { formats[core.format.index] }
        set { enforce { try setActiveFormat(newValue) } }
    }

    /// The shortest time between frames (1 / the highest frame rate). `.invalid` restores the default.
    open var activeVideoMinFrameDuration: CMTime {
        get { activeVideoMinFrameDurationBacking }
        set { enforce { try setActiveVideoMinFrameDuration(newValue) } }
    }

    /// The longest time between frames (1 / the lowest frame rate). `.invalid` restores the default.
    open var activeVideoMaxFrameDuration: CMTime {
        get { activeVideoMaxFrameDurationBacking }
        set { enforce { try setActiveVideoMaxFrameDuration(newValue) } }
    }

    // MARK: +Authorization

    /// Whether the process may capture the media type.
    ///
    /// Linux has no consent prompt: video is `.denied` when a camera's device node exists
    /// that this process may not open (EACCES: the user is not in the `video` group; see
    /// `accessHint`), otherwise `.authorized`; audio likewise when an ALSA capture PCM exists
    /// that it may not open (not in the `audio` group). Simulated devices stay usable either way.
    /// Media types other than video and audio raise, as on iOS.
    open class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus { authorizationStatusBacking(for: mediaType) }

    /// Asks for access; the handler runs on an arbitrary queue with the answer.
    open class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) { requestAccessBacking(for: mediaType, completionHandler: handler) }

    /// Asks for access and returns the answer.
    open class func requestAccess(for mediaType: AVMediaType) async -> Bool { await requestAccessBacking(for: mediaType) }

    // MARK: +CameraEffects

    /// Who may turn Center Stage on and off (default `.user`).
    open class var centerStageControlMode: CenterStageControlMode {
        get { centerStageControlModeBacking }
        set { DeviceClassProperties.shared.changingValues("centerStageControlMode") { centerStageControlModeBacking = newValue } }
    }

    /// Whether Center Stage is on for the app. Setting it while `centerStageControlMode` is
    /// `.user` raises, as on iOS. On Linux no format supports Center Stage, so it never
    /// becomes active on a device (`isCenterStageActive` stays false).
    open class var isCenterStageEnabled: Bool {
        get { isCenterStageEnabledBacking }
        set { DeviceClassProperties.shared.changingValues("centerStageEnabled") { isCenterStageEnabledBacking = newValue } }
    }

    /// Whether Center Stage is framing this device's video now: never (no format supports it).
    open var isCenterStageActive: Bool { isCenterStageActiveBacking }

    /// Whether `centerStageRectOfInterest` can be set: no.
    open var isCenterStageRectOfInterestSupported: Bool { isCenterStageRectOfInterestSupportedBacking }

    /// The part of the picture Center Stage keeps in frame: the whole picture. Setting
    /// another raises, as where unsupported.
    open var centerStageRectOfInterest: CGRect {
        get { centerStageRectOfInterestBacking }
        set { centerStageRectOfInterestBacking = newValue }
    }

    /// Whether the user turned the Portrait effect on in Control Center: there is none on Linux.
    open class var isPortraitEffectEnabled: Bool { isPortraitEffectEnabledBacking }

    /// Whether the Portrait effect blurs this device's background now: never.
    open var isPortraitEffectActive: Bool { isPortraitEffectActiveBacking }

    /// Whether the user turned Studio Light on: there is none on Linux.
    open class var isStudioLightEnabled: Bool { isStudioLightEnabledBacking }

    /// Whether Studio Light lights this device's video now: never.
    open var isStudioLightActive: Bool { isStudioLightActiveBacking }

    /// Whether the user turned background replacement on: there is none on Linux.
    open class var isBackgroundReplacementEnabled: Bool { isBackgroundReplacementEnabledBacking }

    /// Whether the background is being replaced now: never.
    open var isBackgroundReplacementActive: Bool { isBackgroundReplacementActiveBacking }

    /// The rigid transform between two cameras' optical centres, when the system has
    /// calibrated them together: nil, as for cameras without calibration data.
    open class func extrinsicMatrix(from fromDevice: AVCaptureDevice, to toDevice: AVCaptureDevice) -> Data? { extrinsicMatrixBacking(from: fromDevice, to: toDevice) }

    /// Whether global tone mapping is on: false (no format supports it). Setting true raises.
    open var isGlobalToneMappingEnabled: Bool {
        get { isGlobalToneMappingEnabledBacking }
        set { isGlobalToneMappingEnabledBacking = newValue }
    }

    /// Whether the device can correct lens distortion: no (the simulated lenses have none;
    /// V4L2 cameras correct in firmware if at all).
    open var isGeometricDistortionCorrectionSupported: Bool { isGeometricDistortionCorrectionSupportedBacking }

    /// Whether distortion correction is on: false. Setting true raises.
    open var isGeometricDistortionCorrectionEnabled: Bool {
        get { isGeometricDistortionCorrectionEnabledBacking }
        set { isGeometricDistortionCorrectionEnabledBacking = newValue }
    }

    /// Whether the device picks the frame rate from the light (iOS 18): false (no format
    /// supports it). Setting true raises.
    open var isAutoVideoFrameRateEnabled: Bool {
        get { isAutoVideoFrameRateEnabledBacking }
        set { isAutoVideoFrameRateEnabledBacking = newValue }
    }

    /// The zoom factor at which a Dual Camera switches to its telephoto lens (deprecated in
    /// iOS 13 for `virtualDeviceSwitchOverVideoZoomFactors`): that list's first factor on a
    /// dual camera, 1 on other devices.
    @available(*, deprecated, renamed: "virtualDeviceSwitchOverVideoZoomFactors")
    open var dualCameraSwitchOverVideoZoomFactor: CGFloat { dualCameraSwitchOverVideoZoomFactorBacking }

    // MARK: +CinematicVideo

    /// Focuses on a detected object and tracks it in Cinematic video (iOS 26). No format
    /// here supports Cinematic video, so it raises, as Apple does for such a format.
    open func setCinematicVideoTrackingFocus(detectedObjectID: Int, focusMode: CinematicVideoFocusMode) {
        enforce { try setCinematicVideoTrackingFocusChecked(detectedObjectID: detectedObjectID, focusMode: focusMode) }
    }

    /// Focuses on and tracks what is at a point in Cinematic video (iOS 26): raises here.
    open func setCinematicVideoTrackingFocus(at point: CGPoint, focusMode: CinematicVideoFocusMode) {
        enforce { try setCinematicVideoTrackingFocusChecked(at: point, focusMode: focusMode) }
    }

    /// Fixes Cinematic video's focus at the distance of what is at a point (iOS 26): raises here.
    open func setCinematicVideoFixedFocus(at point: CGPoint, focusMode: CinematicVideoFocusMode) {
        enforce { try setCinematicVideoFixedFocusChecked(at: point, focusMode: focusMode) }
    }

    /// What about the scene hinders Cinematic video (iOS 26): nothing, as there is none here.
    open var cinematicVideoCaptureSceneMonitoringStatuses: Set<AVCaptureSceneMonitoringStatus> {
        cinematicVideoCaptureSceneMonitoringStatusesBacking
    }

    // MARK: +ColorSpace

    /// The colour space frames are rendered in (default `.sRGB`).
    ///
    /// `.P3_D65` renders camera RGB into Display P3 primaries instead of sRGB/BT.709 (same
    /// white, same sRGB curve), so saturated colours beyond sRGB keep their saturation, and
    /// tags buffers `kCVImageBufferColorPrimaries_P3_D65`. `.HLG_BT2020`, listed only by 10-bit
    /// ('x420') formats, renders BT.2020 primaries with the ARIB STD-B67 hybrid log-gamma
    /// curve and the BT.2020 Y'CbCr matrix, tags buffers `kCVImageBufferColorPrimaries_ITU_R_2020`,
    /// `kCVImageBufferTransferFunction_ITU_R_2100_HLG` and `kCVImageBufferYCbCrMatrix_ITU_R_2020`,
    /// and movies the same (HEVC Main 10 from 10-bit frames). Setting it needs the configuration
    /// lock and raises `NSInvalidArgumentException` for a colour space the active format does
    /// not list in `supportedColorSpaces`. While a session runs, the change reaches the
    /// stream at the next frame boundary (a new buffer pool). A session whose
    /// `automaticallyConfiguresCaptureDeviceForWideColor` is true (the default) sets it when
    /// it configures (see `AVCaptureSession`); turn that off to choose yourself.
    /// Photos stay sRGB.
    open var activeColorSpace: AVCaptureColorSpace {
        get { AVCaptureColorSpace(rawValue: core.format.colorSpace) ?? .sRGB }
        set { enforce { try setActiveColorSpace(newValue) } }
    }

    // MARK: +DepthData

    /// The depth format in use with `activeFormat`: nil, no camera here delivers depth.
    open var activeDepthDataFormat: AVCaptureDevice.Format? {
        get { activeDepthDataFormatBacking }
        set { activeDepthDataFormatBacking = newValue }
    }

    /// The shortest time between depth maps: `.invalid`, as there is no depth format.
    open var activeDepthDataMinFrameDuration: CMTime {
        get { activeDepthDataMinFrameDurationBacking }
        set { activeDepthDataMinFrameDurationBacking = newValue }
    }

    // MARK: +Discovery

    /// The default device for a media type: the back wide-angle camera for video; for audio
    /// the microphone `AVAudioSession.setPreferredInput` picked, else ALSA's `default` PCM
    /// (`alsa:default`) when it opens for capture, else the simulated microphone.
    open class func `default`(for mediaType: AVMediaType) -> AVCaptureDevice? { defaultBacking(for: mediaType) }

    /// The default device of a type at a position; `nil` media type or `.unspecified` position match any.
    open class func `default`(_ deviceType: DeviceType, for mediaType: AVMediaType?, position: Position) -> AVCaptureDevice? { defaultBacking(deviceType, for: mediaType, position: position) }

    /// Devices capturing a media type (deprecated on iOS 10; kept for code ported from Objective-C).
    @available(*, deprecated, message: "Use AVCaptureDevice.DiscoverySession instead.")
    open class func devices(for mediaType: AVMediaType) -> [AVCaptureDevice] { devicesBacking(for: mediaType) }

    /// All connected devices (deprecated on iOS 10).
    @available(*, deprecated, message: "Use AVCaptureDevice.DiscoverySession instead.")
    open class func devices() -> [AVCaptureDevice] { devicesBacking() }

    // MARK: +Exposure

    /// Whether the device supports an exposure mode (the simulated cameras support all four).
    open func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool { isExposureModeSupportedBacking(exposureMode) }

    /// The exposure mode. `.autoExpose` becomes `.locked` once it has settled. Setting it
    /// needs the configuration lock; an unsupported mode raises. Setting an auto mode also
    /// applies `exposurePointOfInterest`, as on iOS.
    open var exposureMode: ExposureMode {
        get { core.exposure.mode(after: lastFrameMetadata) }
        set { enforce { try setExposureMode(newValue) } }
    }

    /// Whether auto exposure is moving exposure time or ISO right now.
    open var isAdjustingExposure: Bool { isAdjustingExposureBacking }

    /// Whether auto exposure can meter at a chosen point.
    open var isExposurePointOfInterestSupported: Bool { isExposurePointOfInterestSupportedBacking }

    /// Where auto exposure meters: (0,0) is the top left and (1,1) the bottom right of the
    /// unrotated sensor image; default (0.5, 0.5). It takes effect when `exposureMode` is set
    /// next, as on iOS. Needs the configuration lock; unsupported raises.
    open var exposurePointOfInterest: CGPoint {
        get { core.exposure.pointOfInterest }
        set { enforce { try setExposurePointOfInterest(newValue) } }
    }

    /// The exposure error auto exposure measures, in EV: metered minus target.
    open var exposureTargetOffset: Float { exposureTargetOffsetBacking }

    /// Sets `.custom` with an exposure time and ISO (or the `current…` sentinels). The handler
    /// receives the timestamp of the first frame exposed with them. A duration or ISO outside
    /// the active format's range raises `NSRangeException`; no lock raises.
    open func setExposureModeCustom(duration: CMTime, iso ISO: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setExposureModeCustomChecked(duration: duration, iso: ISO, completionHandler: handler) }
    }

    /// Sets `.custom` and returns the timestamp of the first frame exposed with the values.
    @discardableResult
    open func setExposureModeCustom(duration: CMTime, iso ISO: Float) async -> CMTime {
        await syncTime { setExposureModeCustom(duration: duration, iso: ISO, completionHandler: $0) }
    }

    /// The smallest exposure target bias, EV.
    open var minExposureTargetBias: Float { minExposureTargetBiasBacking }

    /// The largest exposure target bias, EV.
    open var maxExposureTargetBias: Float { maxExposureTargetBiasBacking }

    /// The bias auto exposure aims with, EV (default 0).
    open var exposureTargetBias: Float { core.exposure.targetBias }

    /// Biases the exposure target by `bias` EV (or `currentExposureTargetBias`). Out of
    /// range raises `NSRangeException`; no lock raises.
    open func setExposureTargetBias(_ bias: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setExposureTargetBiasChecked(bias, completionHandler: handler) }
    }

    /// Biases the target and returns the timestamp of the first frame with the bias.
    @discardableResult
    open func setExposureTargetBias(_ bias: Float) async -> CMTime { await syncTime { setExposureTargetBias(bias, completionHandler: $0) } }

    /// The longest exposure auto exposure may use; `.invalid` restores the format's default.
    /// Reset when the format changes. Outside the format's exposure range raises.
    open var activeMaxExposureDuration: CMTime {
        get { activeMaxExposureDurationBacking }
        set { enforce { try setActiveMaxExposureDuration(newValue) } }
    }

    // MARK: +FaceDriven

    /// Whether the device turns face-driven autofocus on and off itself (default true).
    open var automaticallyAdjustsFaceDrivenAutoFocusEnabled: Bool {
        get { core.focus.automaticallyAdjustsFaceDriven }
        set { enforce { try setAutomaticallyAdjustsFaceDrivenAutoFocusEnabled(newValue) } }
    }

    /// Whether faces drive autofocus (default true on cameras that autofocus, false on
    /// fixed-focus ones). Setting it needs the lock and `automaticallyAdjustsFaceDrivenAutoFocusEnabled`
    /// false, and raises on a fixed-focus camera, as on iOS.
    open var isFaceDrivenAutoFocusEnabled: Bool {
        get { isFocusModeSupported(.autoFocus) && core.focus.faceDriven }
        set { enforce { try setFaceDrivenAutoFocusEnabled(newValue) } }
    }

    /// Whether the device turns face-driven auto exposure on and off itself (default true).
    open var automaticallyAdjustsFaceDrivenAutoExposureEnabled: Bool {
        get { core.exposure.automaticallyAdjustsFaceDriven }
        set { enforce { try setAutomaticallyAdjustsFaceDrivenAutoExposureEnabled(newValue) } }
    }

    /// Whether faces drive auto exposure (default true). Setting it needs the lock and
    /// `automaticallyAdjustsFaceDrivenAutoExposureEnabled` false, as on iOS.
    open var isFaceDrivenAutoExposureEnabled: Bool {
        get { core.exposure.faceDriven }
        set { enforce { try setFaceDrivenAutoExposureEnabled(newValue) } }
    }

    // MARK: +Flash

    /// Whether the camera has a flash (the back cameras and the virtual devices made of them).
    open var hasFlash: Bool { hasFlashBacking }

    /// Whether the flash can fire now.
    open var isFlashAvailable: Bool { isFlashAvailableBacking }

    /// Whether the flash is lit or charged for the next still (deprecated on iOS 10, as
    /// on iOS it reports the still image output's flash, which `AVCapturePhotoOutput`
    /// replaced): true while `flashMode` is `.on` on an available flash.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's isFlashScene instead.")
    open var isFlashActive: Bool { isFlashActiveBacking }

    /// Whether the deprecated device `flashMode` can take `flashMode`: `.off` always,
    /// `.on` and `.auto` on a camera with a flash.
    @available(*, deprecated, message: "Use AVCapturePhotoOutput's supportedFlashModes instead.")
    open func isFlashModeSupported(_ flashMode: FlashMode) -> Bool { isFlashModeSupportedBacking(flashMode) }

    /// The device's flash mode (default `.off`; deprecated on iOS 10). As on iOS it is
    /// not what `AVCapturePhotoOutput` uses: photos take `AVCapturePhotoSettings.flashMode`.
    /// Setting it needs the configuration lock (else `NSGenericException`); an unsupported
    /// mode raises `NSInvalidArgumentException`.
    @available(*, deprecated, message: "Use AVCapturePhotoSettings.flashMode instead.")
    open var flashMode: FlashMode {
        get { core.torchFlash.flashMode }
        set { enforce { try setFlashModeChecked(newValue) } }
    }

    // MARK: +Focus

    /// Whether the device supports a focus mode: cameras that focus support all three; a
    /// fixed-focus camera (the ultra wide) only `.locked`.
    open func isFocusModeSupported(_ focusMode: FocusMode) -> Bool { isFocusModeSupportedBacking(focusMode) }

    /// The focus mode (default `.continuousAutoFocus` where supported). `.autoFocus` becomes
    /// `.locked` once focus is found. Setting it needs the configuration lock; an unsupported
    /// mode raises. Setting an auto mode applies `focusPointOfInterest`,
    /// `autoFocusRangeRestriction` and `isSmoothAutoFocusEnabled`, as on iOS.
    open var focusMode: FocusMode {
        get { core.focus.mode(after: lastFrameMetadata, fallback: defaultFocusMode) }
        set { enforce { try setFocusMode(newValue) } }
    }

    /// Whether autofocus is moving the lens to find focus right now.
    open var isAdjustingFocus: Bool { isAdjustingFocusBacking }

    /// Whether autofocus can focus at a chosen point.
    open var isFocusPointOfInterestSupported: Bool { isFocusPointOfInterestSupportedBacking }

    /// Where autofocus looks: (0,0) is the top left and (1,1) the bottom right of the
    /// unrotated sensor image; default (0.5, 0.5). It takes effect when `focusMode` is set
    /// next, as on iOS. Needs the configuration lock; unsupported raises.
    open var focusPointOfInterest: CGPoint {
        get { core.focus.pointOfInterest }
        set { enforce { try setFocusPointOfInterest(newValue) } }
    }

    /// Whether autofocus can be restricted to near or far objects.
    open var isAutoFocusRangeRestrictionSupported: Bool { isAutoFocusRangeRestrictionSupportedBacking }

    /// Where autofocus may search (default `.none`); applied when `focusMode` is set next.
    /// Needs the configuration lock; unsupported raises.
    open var autoFocusRangeRestriction: AutoFocusRangeRestriction {
        get { core.focus.rangeRestriction }
        set { enforce { try setAutoFocusRangeRestriction(newValue) } }
    }

    /// Whether autofocus can move the lens gently (for video).
    open var isSmoothAutoFocusSupported: Bool { isSmoothAutoFocusSupportedBacking }

    /// Whether autofocus moves the lens in smaller steps (default false); applied when
    /// `focusMode` is set next. Needs the configuration lock; unsupported raises.
    open var isSmoothAutoFocusEnabled: Bool {
        get { core.focus.isSmoothEnabled }
        set { enforce { try setSmoothAutoFocusEnabled(newValue) } }
    }

    /// The lens position of the newest frame: 0 is the nearest focus, 1 the farthest
    /// (a little past infinity, not infinity itself). 1 before any frame.
    open var lensPosition: Float { lensPositionBacking }

    /// The nearest distance the camera focuses at, millimetres (for a fixed-focus camera, the
    /// near limit of its depth of field).
    open var minimumFocusDistance: Int { minimumFocusDistanceBacking }

    /// Whether `setFocusModeLocked(lensPosition:)` accepts positions other than `currentLensPosition`.
    open var isLockingFocusWithCustomLensPositionSupported: Bool { isLockingFocusWithCustomLensPositionSupportedBacking }

    /// Sets `.locked` with the lens at `lensPosition` (0 ... 1, or `currentLensPosition`).
    /// The handler receives the timestamp of the first frame taken with it. Out of range
    /// raises `NSRangeException`; a custom position on a camera that cannot move its lens
    /// raises `NSInvalidArgumentException`; no lock raises.
    open func setFocusModeLocked(lensPosition: Float, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setFocusModeLockedChecked(lensPosition: lensPosition, completionHandler: handler) }
    }

    /// Sets `.locked` at `lensPosition` and returns the timestamp of the first frame with it.
    @discardableResult
    open func setFocusModeLocked(lensPosition: Float) async -> CMTime {
        await syncTime { setFocusModeLocked(lensPosition: lensPosition, completionHandler: $0) }
    }

    // MARK: +LensAndUse

    /// The lens's nominal focal length as a 35 mm film equivalent, in millimetres (iOS 26):
    /// the focal length that gives a 36 mm wide frame the horizontal field of view of the
    /// camera's widest format (its full sensor), the figure photos carry as EXIF
    /// `FocalLenIn35mmFilm`. 0 when no format knows its field of view (V4L2 cameras).
    open var nominalFocalLengthIn35mmFilm: Float { nominalFocalLengthIn35mmFilmBacking }

    /// Whether another program holds the camera now (macOS and Mac Catalyst on Apple
    /// platforms): asked of the driver at each read, since a V4L2 node shows it as a busy
    /// buffer queue. False for simulated cameras, for a camera this process streams from,
    /// and for microphones. Reads only; other programs' use is not watched, so the
    /// property is not key-value observable here.
    open var isInUseByAnotherApplication: Bool { isInUseByAnotherApplicationBacking }

    // MARK: +LowLightBoost

    /// Whether the camera can boost low-light sensitivity (the simulated back wide camera can;
    /// the others cannot, as on iPhones where only some cameras offered it).
    open var isLowLightBoostSupported: Bool { isLowLightBoostSupportedBacking }

    /// Whether low-light boost is on now: the camera lengthens exposures (and frames, down to
    /// 15 fps) in dim scenes instead of raising gain, which lowers noise.
    open var isLowLightBoostEnabled: Bool { isLowLightBoostEnabledBacking }

    /// Whether the camera may switch low-light boost on by itself in dim scenes (default false).
    /// Setting it needs the configuration lock; on a camera without boost it raises.
    open var automaticallyEnablesLowLightBoostWhenAvailable: Bool {
        get { core.exposure.lowLightBoostAllowed }
        set { enforce { try setAutomaticallyEnablesLowLightBoostWhenAvailable(newValue) } }
    }

    // MARK: +MicrophoneMode

    /// The mode the user chose in Control Center: `.standard` (no such choice on Linux).
    open class var preferredMicrophoneMode: MicrophoneMode { preferredMicrophoneModeBacking }

    /// The mode in effect: `.standard`, the only one a Linux audio route does.
    open class var activeMicrophoneMode: MicrophoneMode { activeMicrophoneModeBacking }

    // MARK: +PreferredCamera

    /// The camera the system prefers for video and photos: `userPreferredCamera` when one
    /// was set and is connected, else the default video camera (the back wide-angle camera).
    /// `nil` only with no camera at all. Read-only; it changes when cameras come and go.
    open class var systemPreferredCamera: AVCaptureDevice? { systemPreferredCameraBacking }

    /// The camera the user prefers. The process keeps a short history (the last 8 set);
    /// reading it gives the most recently set one still connected, else the system's best
    /// camera, so it always names a present device (nil only with no camera). Setting `nil`
    /// has no effect, as Apple documents. Both class properties are key-value observable
    /// (`AVCaptureDevice.self.observe(\.systemPreferredCamera, ...)`).
    open class var userPreferredCamera: AVCaptureDevice? {
        get { userPreferredCameraBacking }
        set { userPreferredCameraBacking = newValue }
    }

    // MARK: +Reactions

    /// Whether the app has reaction effects enabled: false (on iOS, true for `voip` apps or
    /// with `NSCameraReactionEffectsEnabled`; a Linux process has neither).
    open class var reactionEffectsEnabled: Bool { reactionEffectsEnabledBacking }

    /// Whether gesture detection triggers reactions: false (no gesture recogniser).
    open class var reactionEffectGesturesEnabled: Bool { reactionEffectGesturesEnabledBacking }

    /// Whether the device can perform reactions now: `reactionEffectsEnabled` and the active
    /// format's `reactionEffectsSupported`, so false.
    open var canPerformReactionEffects: Bool { canPerformReactionEffectsBacking }

    /// The reactions the device can perform: empty.
    open var availableReactionTypes: Set<AVCaptureReactionType> { availableReactionTypesBacking }

    /// The reactions being rendered, by start time: always empty.
    open var reactionEffectsInProgress: [AVCaptureReactionEffectState] { reactionEffectsInProgressBacking }

    /// Performs a reaction. Apple documents that a type outside `availableReactionTypes`
    /// raises an exception; that set is empty here, so every call raises
    /// `NSInvalidArgumentException` (`performEffectChecked(for:)` is the checked form).
    /// (Apple's note that the call "has no effect" while `canPerformReactionEffects` is false
    /// would make it a silent no-op; the documented exception is the honest answer.)
    open func performEffect(for reactionType: AVCaptureReactionType) { performEffectBacking(for: reactionType) }

    // MARK: +SubjectArea

    /// Whether the device posts `subjectAreaDidChangeNotification` when the scene changes
    /// substantially (a lighting change, large motion, a new framing). Off by default.
    /// Setting it needs the configuration lock.
    open var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { core.subjectAreaMonitoring.withLock { $0 } }
        set { enforce { try setSubjectAreaChangeMonitoringEnabled(newValue) } }
    }

    // MARK: +SystemPressure

    /// The device's current system pressure: a simulated camera's thermal model (which
    /// keeps cooling while idle), else the newest frame's report.
    open var systemPressureState: SystemPressureState { systemPressureStateBacking }

    // MARK: +SystemUserInterface

    /// Asks for the system's video-effects or microphone-modes interface. On Linux the
    /// request is posted as `systemUserInterfaceRequestedNotification` for the host to
    /// present; the call does not wait for the user.
    open class func showSystemUserInterface(_ systemUserInterface: SystemUserInterface) { showSystemUserInterfaceBacking(systemUserInterface) }

    // MARK: +Torch

    /// Whether the camera has a torch (the back cameras do, the front one does not).
    open var hasTorch: Bool { hasTorchBacking }

    /// Whether the torch can be lit now: false when the camera is too hot (system pressure
    /// critical or worse).
    open var isTorchAvailable: Bool { isTorchAvailableBacking }

    /// Whether the torch is lighting the newest frame.
    open var isTorchActive: Bool { isTorchActiveBacking }

    /// The torch's level in the newest frame, 0 (off) ... 1.
    open var torchLevel: Float { torchLevelBacking }

    /// Whether the device supports a torch mode (any, if it has a torch).
    open func isTorchModeSupported(_ torchMode: TorchMode) -> Bool { isTorchModeSupportedBacking(torchMode) }

    /// The torch mode (default `.off`). Setting it needs the configuration lock; an
    /// unsupported mode raises. `.on` lights at full level (as far as heat allows).
    open var torchMode: TorchMode {
        get { core.torchFlash.torchMode }
        set { enforce { try setTorchMode(newValue) } }
    }

    /// Lights the torch at `level` (0 < level ≤ 1, or `maxAvailableTorchLevel`). A level
    /// outside that raises `NSInvalidArgumentException`, as does a camera without a torch;
    /// no lock raises. A valid level the torch cannot give now (too hot) throws
    /// `AVError.torchLevelUnavailable`.
    open func setTorchModeOn(level: Float) throws {
        var unavailable: AVError?
        enforce { unavailable = try setTorchModeOnChecked(level: level) }
        if let unavailable { throw unavailable }
    }

    // MARK: +TransportControls

    /// Whether the device has a transport to control: true for a file deck
    /// (`AVCaptureDevice.fileDeck(url:)`), false for every camera (V4L2 does not reach
    /// FireWire decks; the simulated cameras are phone cameras), as macOS reports for a webcam.
    open var transportControlsSupported: Bool { transportControlsSupportedBacking }

    /// The transport's mode: a deck's, else `.notPlaying`.
    ///
    /// A deck `.playing` delivers frames (at speed 0 it holds still and delivers none);
    /// `.notPlaying` delivers none: as Apple says, the tape is not threaded through the play
    /// head, so no picture reaches the device. Photo outputs then take the frame shown last.
    open var transportControlsPlaybackMode: TransportControlsPlaybackMode { transportControlsPlaybackModeBacking }

    /// The transport's speed: a deck's, else 0.
    open var transportControlsSpeed: TransportControlsSpeed { transportControlsSpeedBacking }

    /// Puts the transport in `mode` at `speed`. Needs the configuration lock
    /// (NSGenericException without it, as the seed says); a device without transport controls
    /// raises NSInvalidArgumentException.
    ///
    /// A file deck plays at 0 (still) or 0.25 to 8 times normal speed either way (negative:
    /// backwards, frame-exactly, decoding each group of pictures backwards); another speed
    /// raises NSInvalidArgumentException. The change lands at the next frame: that frame is
    /// the neighbour, in the new direction, of the last frame delivered. Frames keep rising
    /// timestamps on the session clock at every speed. Key-value observers of
    /// `transportControlsPlaybackMode` and `transportControlsSpeed` are told on the calling
    /// thread; at an end of the file (see `AVCaptureDevice.Deck.loops`) on the device's queue.
    open func setTransportControlsPlaybackMode(_ mode: TransportControlsPlaybackMode, speed: TransportControlsSpeed) { setTransportControlsPlaybackModeBacking(mode, speed: speed) }

    // MARK: +VideoHDR

    /// Whether the device may switch video HDR on and off by itself (default true).
    ///
    /// Apple turns HDR on with a session preset when the preset suits it; on Linux the
    /// simulated camera decides from the scene instead, frame by frame: on an HDR-capable
    /// format it merges a short exposure in when the scene overflows one exposure at both
    /// ends (more than 2 % of samples clipped and more than 2 % near black, for 3 frames) and
    /// stops after 15 frames in which the long exposure no longer clips. `isVideoHDREnabled`
    /// then reports what the camera does. Setting this needs the configuration lock; setting
    /// it to false keeps HDR as it is now (on only if it is on now).
    open var automaticallyAdjustsVideoHDREnabled: Bool {
        get { core.format.videoHDR.automatic }
        set { enforce { try setAutomaticallyAdjustsVideoHDREnabled(newValue) } }
    }

    /// Whether video HDR is on: each frame merges a long and a 16× shorter exposure and a
    /// tone curve fits the result into the output (see the simulated camera's `HDRMerge`).
    ///
    /// With `automaticallyAdjustsVideoHDREnabled` it reports what the camera did in its newest
    /// frame. Setting it needs the configuration lock and raises `NSGenericException` while
    /// the device adjusts HDR automatically, or when turning it on and the active format
    /// does not support it (`Format.isVideoHDRSupported`). Setting `activeFormat` (or a
    /// session preset) turns it off, as on iOS.
    open var isVideoHDREnabled: Bool {
        get { isVideoHDREnabledBacking }
        set { enforce { try setVideoHDREnabled(newValue) } }
    }

    // MARK: +VirtualDevice

    /// Whether the device is a virtual device made of several cameras (the simulated dual
    /// wide and triple cameras are).
    open var isVirtualDevice: Bool { isVirtualDeviceBacking }

    /// A virtual device's physical cameras, widest first; empty for a physical device.
    open var constituentDevices: [AVCaptureDevice] { constituentDevicesBacking }

    /// The zoom factors at which a virtual device switches to its next constituent
    /// (ascending; one fewer than `constituentDevices`); empty for a physical device. The
    /// constituent after a switch-over factor s films at its own zoom `videoZoomFactor`/s.
    open var virtualDeviceSwitchOverVideoZoomFactors: [NSNumber] { virtualDeviceSwitchOverVideoZoomFactorsBacking }

    /// The factor that turns `videoZoomFactor` into the zoom shown to people, where the
    /// back wide-angle camera is "1x": 1/2.34 (0.43) for the dual wide and triple cameras
    /// and the ultra wide (whose zoom 1 is the ultra wide's view), 2.28 for the telephoto,
    /// 1 for the wide and front cameras and real cameras. Apple's cameras give 0.5 and 2, 3
    /// or 5 by the same rule.
    open var displayVideoZoomFactorMultiplier: CGFloat { displayVideoZoomFactorMultiplierBacking }

    /// The constituent filming now: of the newest frame once it carries the latest zoom
    /// change, else the one the zoom (or a locked switching behaviour) selects. `nil` for a
    /// physical device.
    open var activePrimaryConstituent: AVCaptureDevice? { activePrimaryConstituentBacking }

    /// The switching behaviour last set: `.auto` for a virtual device until set,
    /// `.unsupported` for a physical one.
    open var primaryConstituentDeviceSwitchingBehavior: PrimaryConstituentDeviceSwitchingBehavior { primaryConstituentDeviceSwitchingBehaviorBacking }

    /// The conditions last set for `.restricted` (empty until set).
    open var primaryConstituentDeviceRestrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions { primaryConstituentDeviceRestrictedSwitchingBehaviorConditionsBacking }

    /// The switching behaviour in force: the one set, except while an
    /// `AVCaptureMovieFileOutput` with `isPrimaryConstituentDeviceSwitchingBehaviorForRecordingEnabled`
    /// records from this device, when it is the output's. `.unsupported` for a physical device.
    open var activePrimaryConstituentDeviceSwitchingBehavior: PrimaryConstituentDeviceSwitchingBehavior { activePrimaryConstituentDeviceSwitchingBehaviorBacking }

    /// The restricted conditions in force (the recording's while one overrides them).
    open var activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions { activePrimaryConstituentDeviceRestrictedSwitchingBehaviorConditionsBacking }

    /// Sets how the virtual device may switch constituents. `.locked` holds the active
    /// constituent (zoom then stays within its reach: `minAvailableVideoZoomFactor` becomes
    /// its switch-over factor); `.restricted` switches only on the given conditions (with
    /// `.videoZoomChanged` that is every zoom change, as zoom is what switches here; without
    /// it the constituent is held and re-chosen for the zoom when focus or exposure mode is
    /// set, if those conditions are given); `.unsupported` restricts nothing. Needs the
    /// configuration lock (`NSGenericException`); a physical device, or conditions with a
    /// behaviour other than `.restricted`, raises `NSInvalidArgumentException`.
    open func setPrimaryConstituentDeviceSwitchingBehavior(
        _ switchingBehavior: PrimaryConstituentDeviceSwitchingBehavior,
        restrictedSwitchingBehaviorConditions: PrimaryConstituentDeviceRestrictedSwitchingBehaviorConditions
    ) { setPrimaryConstituentDeviceSwitchingBehaviorBacking(switchingBehavior, restrictedSwitchingBehaviorConditions: restrictedSwitchingBehaviorConditions) }

    /// Constituents that may stand in when the primary one cannot focus close: none, as
    /// the simulated cameras do not fall back (as on an iPhone without the feature).
    open var supportedFallbackPrimaryConstituentDevices: [AVCaptureDevice] { supportedFallbackPrimaryConstituentDevicesBacking }

    /// The fallback constituents chosen (always empty here). Setting it needs the
    /// configuration lock; a device not in `supportedFallbackPrimaryConstituentDevices`
    /// raises `NSInvalidArgumentException`.
    open var fallbackPrimaryConstituentDevices: [AVCaptureDevice] {
        get { fallbackPrimaryConstituentDevicesBacking }
        set { fallbackPrimaryConstituentDevicesBacking = newValue }
    }

    // MARK: +WhiteBalance

    /// Whether the device supports a white-balance mode.
    open func isWhiteBalanceModeSupported(_ whiteBalanceMode: WhiteBalanceMode) -> Bool { isWhiteBalanceModeSupportedBacking(whiteBalanceMode) }

    /// The white-balance mode. `.autoWhiteBalance` becomes `.locked` once it has settled.
    /// Setting it needs the configuration lock; an unsupported mode raises.
    open var whiteBalanceMode: WhiteBalanceMode {
        get { core.whiteBalance.mode(after: lastFrameMetadata) }
        set { enforce { try setWhiteBalanceMode(newValue) } }
    }

    /// Whether auto white balance is moving the gains right now.
    open var isAdjustingWhiteBalance: Bool { isAdjustingWhiteBalanceBacking }

    /// The largest gain a channel can take (4.0 on the simulated cameras, as on iPhones).
    open var maxWhiteBalanceGain: Float { maxWhiteBalanceGainBacking }

    /// Whether `setWhiteBalanceModeLocked(with:)` accepts gains other than the current ones.
    open var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool { isLockingWhiteBalanceWithCustomDeviceGainsSupportedBacking }

    /// The gains applied to the newest frame.
    open var deviceWhiteBalanceGains: WhiteBalanceGains { deviceWhiteBalanceGainsBacking }

    /// Gains that would make a grey subject filling the centre 50% of the frame neutral,
    /// in any mode.
    open var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains { grayWorldDeviceWhiteBalanceGainsBacking }

    /// Locks white balance with `whiteBalanceGains` (or `AVCaptureDevice.currentWhiteBalanceGains`).
    /// Gains are normalised to the smallest channel, so (2, 2, 4) becomes (1, 1, 2). The
    /// handler receives the timestamp of the first frame captured with them. Needs the
    /// configuration lock; a channel outside 1 ... `maxWhiteBalanceGain` raises.
    open func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains, completionHandler handler: ((CMTime) -> Void)? = nil) {
        enforce { try setWhiteBalanceModeLockedChecked(with: whiteBalanceGains, completionHandler: handler) }
    }

    /// Locks white balance and returns the timestamp of the first frame with the gains.
    @discardableResult
    open func setWhiteBalanceModeLocked(with whiteBalanceGains: WhiteBalanceGains) async -> CMTime {
        await syncTime { setWhiteBalanceModeLocked(with: whiteBalanceGains, completionHandler: $0) }
    }

    // MARK: +WhiteBalanceConversions

    /// The chromaticity of the white that `whiteBalanceGains` neutralise. Gains outside
    /// 1 ... `maxWhiteBalanceGain`, or the current-gains sentinel, raise `NSRangeException`.
    open func chromaticityValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceChromaticityValues { chromaticityValuesBacking(for: whiteBalanceGains) }

    /// The colour temperature and tint of the white that `whiteBalanceGains` neutralise.
    /// Gains outside 1 ... `maxWhiteBalanceGain`, or the sentinel, raise `NSRangeException`.
    open func temperatureAndTintValues(for whiteBalanceGains: WhiteBalanceGains) -> WhiteBalanceTemperatureAndTintValues { temperatureAndTintValuesBacking(for: whiteBalanceGains) }

    /// Device gains that neutralise a white of chromaticity `chromaticityValues`. The result
    /// may lie outside 1 ... `maxWhiteBalanceGain`: check it before locking. x or y outside
    /// 0 ... 1 raises `NSRangeException`.
    open func deviceWhiteBalanceGains(for chromaticityValues: WhiteBalanceChromaticityValues) -> WhiteBalanceGains { deviceWhiteBalanceGainsBacking(for: chromaticityValues) }

    /// Device gains that neutralise a white of the given temperature and tint. Any values
    /// are accepted; the result may lie outside 1 ... `maxWhiteBalanceGain`.
    open func deviceWhiteBalanceGains(for temperatureAndTintValues: WhiteBalanceTemperatureAndTintValues) -> WhiteBalanceGains { deviceWhiteBalanceGainsBacking(for: temperatureAndTintValues) }

    // MARK: +Zoom

    /// The zoom factor (default 1): of the newest frame once a frame carries the last zoom
    /// change, the value set until then. Setting it needs the configuration lock, cancels a
    /// ramp, and raises `NSRangeException` below 1 or above the active format's
    /// `videoMaxZoomFactor`; otherwise it is clamped to `min/maxAvailableVideoZoomFactor`.
    open var videoZoomFactor: CGFloat {
        get { videoZoomFactorBacking }
        set { enforce { try setVideoZoomFactor(newValue) } }
    }

    /// The smallest zoom factor available now: 1 (a virtual device's widest view), or, while
    /// a virtual device's switching behaviour holds a constituent, that constituent's
    /// switch-over factor (it cannot see wider than its lens).
    open var minAvailableVideoZoomFactor: CGFloat { minAvailableVideoZoomFactorBacking }

    /// The largest zoom factor available now: the active format's `videoMaxZoomFactor`.
    open var maxAvailableVideoZoomFactor: CGFloat { maxAvailableVideoZoomFactorBacking }

    /// Moves the zoom smoothly toward `factor`, multiplying it by 2^|rate| per second of frame
    /// time (the sign of `rate` is ignored); rate 0 cancels a ramp. Needs the configuration
    /// lock; a factor outside 1 ... `videoMaxZoomFactor` raises `NSRangeException`.
    open func ramp(toVideoZoomFactor factor: CGFloat, withRate rate: Float) { enforce { try rampChecked(toVideoZoomFactor: factor, withRate: rate) } }

    /// Stops a zoom ramp where it is. Needs the configuration lock.
    open func cancelVideoZoomRamp() { enforce { try cancelVideoZoomRampChecked() } }

    /// Whether a zoom ramp is under way (from the call until the ramp ends or is cancelled).
    open var isRampingVideoZoom: Bool { isRampingVideoZoomBacking }
}
