/// What a device knows about one frame: when and how it was captured.
///
/// A value type with no references, so carrying it costs no allocation.
package struct FrameMetadata: Sendable, Equatable {
    /// The device's frame counter; gaps mean frames were lost.
    package var sequence: Int64 = 0
    /// Capture time (start of exposure) on the host clock.
    package var presentationTime: CMTime = .invalid
    /// The frame duration in force for this frame.
    package var frameDuration: CMTime = .invalid
    /// Exposure time in seconds.
    package var exposureDuration: Double = 0
    /// ISO (sensor gain, 100 = unity at base ISO).
    package var iso: Float = 0
    /// The fixed f-number of the lens.
    package var lensAperture: Float = 0
    /// Lens position, 0 nearest ... 1 farthest.
    package var lensPosition: Float = 1
    /// Zoom factor applied to this frame.
    package var zoomFactor: Double = 1
    /// White-balance gains applied, red / green / blue.
    package var whiteBalanceGains: (red: Float, green: Float, blue: Float) = (1, 1, 1)
    /// The exposure mode in force for this frame.
    package var exposureState: ExposureState = .continuous
    /// Whether auto exposure is still moving exposure or gain.
    package var isAdjustingExposure = false
    /// Whether low-light boost was on for this frame.
    package var isLowLightBoostEnabled = false
    /// The exposure target bias in force, EV.
    package var exposureTargetBias: Float = 0
    /// The white-balance mode in force for this frame.
    package var whiteBalanceState: WhiteBalanceState = .continuous
    /// Whether auto white balance is still moving the gains.
    package var isAdjustingWhiteBalance = false
    /// Gains that would neutralise the centre 50% of the frame (grey-world estimate).
    package var grayWorldGains: (red: Float, green: Float, blue: Float) = (1, 1, 1)
    /// The scene illuminant the frame was lit by (simulated cameras; 0 when unknown).
    package var sceneTemperature: Double = 0
    package var sceneTint: Double = 0
    /// Mean luma of the frame, 0 ... 1 (statistics for the 3A loops and tests).
    package var meanLuma: Float = 0
    /// Exposure error the auto-exposure loop measured, in EV (metered - target).
    package var exposureTargetOffset: Float = 0
    /// Whether the scene changed substantially at this frame (subject-area monitoring).
    package var subjectAreaChanged = false
    /// The last control request the device applied on or before this frame.
    package var appliedRequest: UInt64 = 0
    /// Width and height of the frame as produced by the device.
    package var width: Int = 0
    package var height: Int = 0
    /// System pressure when the frame was made: 0 nominal, 1 fair, 2 serious, 3 critical,
    /// 4 shutdown; and the contributing factors (`SystemPressureState.Factors` raw bits).
    package var systemPressureLevel: Int = 0
    package var systemPressureFactors: UInt = 0
    /// Host time, nanoseconds, when a V4L2 backend dequeued the frame (0 for other backends):
    /// with the delegate's own clock reading it gives the cost of our path per frame.
    package var dequeueHostTime: Int64 = 0
    /// Whether the device already flipped this frame left to right (`StreamConfiguration.mirrored`).
    package var isMirroredByDevice = false

    /// Whether the frame merged a long and a short exposure (video HDR).
    package var isVideoHDREnabled = false
    /// The raw `AVCaptureColorSpace` the frame was rendered in.
    package var colorSpace = 0
    /// The sensor's black level in ADC codes and the analogue part of its gain (ISO / base
    /// ISO up to the sensor's analogue maximum), for raw data.
    package var blackLevel: Float = 0
    package var analogGain: Float = 1
    /// The focus mode in force, whether autofocus is moving the lens, whether a zoom ramp
    /// runs, and the torch level lighting the frame (0 = off).
    package var focusState: FocusState = .locked
    package var isAdjustingFocus = false
    package var isRampingVideoZoom = false
    package var torchLevel: Float = 0
    /// A virtual device's constituent camera that filmed the frame (index into its
    /// constituents, widest first); 0 for a physical camera.
    package var activeConstituent = 0

    package init() {}

    package static func == (lhs: FrameMetadata, rhs: FrameMetadata) -> Bool {
        lhs.sequence == rhs.sequence && lhs.presentationTime == rhs.presentationTime
            && lhs.exposureDuration == rhs.exposureDuration && lhs.iso == rhs.iso
            && lhs.whiteBalanceGains.red == rhs.whiteBalanceGains.red
            && lhs.whiteBalanceGains.green == rhs.whiteBalanceGains.green
            && lhs.whiteBalanceGains.blue == rhs.whiteBalanceGains.blue
            && lhs.appliedRequest == rhs.appliedRequest
    }
}

/// Why a frame did not reach an output, matching `AVCaptureOutput.DataDroppedReason`.
package enum DropReason: Int, Sendable {
    case lateData = 1
    case outOfBuffers = 2
    case discontinuity = 3

    /// The `kCMSampleBufferDroppedFrameReason_*` string for the reason.
    package var attachmentValue: String {
        switch self {
        case .lateData: kCMSampleBufferDroppedFrameReason_FrameWasLate
        case .outOfBuffers: kCMSampleBufferDroppedFrameReason_OutOfBuffers
        case .discontinuity: kCMSampleBufferDroppedFrameReason_Discontinuity
        }
    }
}
