import CLibcameraRuntime
import Testing

@testable import CaptureCore
@testable import LibcameraCamera

/// The libcamera backend's control rules without a camera: what a control request becomes
/// in a libcamera request, and which frame its completion handler gets (the first whose
/// metadata shows the values, not the first that merely carried them).
@Suite("libcamera: control requests and frame metadata")
struct LibcameraControlMapperTests {
    /// A sensor with AE, exposure time (100 µs ... 66 ms), analogue gain (1 ... 16), AWB
    /// with colour gains, and a lens (0 ... 10 dioptres).
    static func limits() -> LibcameraLimits {
        var raw = OCLcControlLimits()
        raw.has = UInt32(
            OC_LC_HAS_AE_ENABLE | OC_LC_HAS_EXPOSURE_TIME | OC_LC_HAS_ANALOGUE_GAIN | OC_LC_HAS_AWB_ENABLE | OC_LC_HAS_COLOUR_GAINS
                | OC_LC_HAS_AF_MODE | OC_LC_HAS_LENS_POSITION | OC_LC_HAS_SCALER_CROP)
        raw.minExposureTime = 100
        raw.maxExposureTime = 66_000
        raw.minAnalogueGain = 1
        raw.maxAnalogueGain = 16
        raw.minLensPosition = 0
        raw.maxLensPosition = 10
        raw.maxScalerCrop = (0, 0, 4000, 3000)
        return LibcameraLimits(raw)
    }

    static func frame(tag: UInt64, exposure: Int32? = nil, gain: Float? = nil, lens: Float? = nil) -> OCLcFrame {
        var frame = OCLcFrame()
        frame.tag = tag
        if let exposure {
            frame.exposureTime = exposure
            frame.metadata |= UInt32(OC_LC_MD_EXPOSURE_TIME)
        }
        if let gain {
            frame.analogueGain = gain
            frame.metadata |= UInt32(OC_LC_MD_ANALOGUE_GAIN)
        }
        if let lens {
            frame.lensPosition = lens
            frame.metadata |= UInt32(OC_LC_MD_LENS_POSITION)
        }
        return frame
    }

    @Test func customExposureBecomesAeOffExposureTimeAndGain() {
        let mapper = LibcameraControlMapper(limits: Self.limits())
        let controls = mapper.controls(for: ControlRequest(id: 1, exposure: .custom(duration: 0.01, iso: 400)))
        #expect(controls.set == UInt32(OC_LC_HAS_AE_ENABLE | OC_LC_HAS_EXPOSURE_TIME | OC_LC_HAS_ANALOGUE_GAIN))
        #expect(controls.aeEnable == 0)
        #expect(controls.exposureTime == 10_000)
        // ISO 400 = 4 × unity analogue gain.
        #expect(controls.analogueGain == 4)
        // Beyond the sensor's limits: clamped.
        let clamped = mapper.controls(for: ControlRequest(id: 2, exposure: .custom(duration: 1, iso: 10_000)))
        #expect(clamped.exposureTime == 66_000)
        #expect(clamped.analogueGain == 16)
    }

    @Test func completionWaitsForTheFrameThatShowsTheValues() {
        let mapper = LibcameraControlMapper(limits: Self.limits())
        _ = mapper.controls(for: ControlRequest(id: 5, exposure: .custom(duration: 0.02, iso: 200)))
        var metadata = FrameMetadata()
        // Requests queued before the change still complete.
        mapper.describe(Self.frame(tag: 0, exposure: 8_000, gain: 1), into: &metadata)
        #expect(metadata.appliedRequest == 0)
        // Carried, but the sensor still shows the old exposure (its pipeline delay).
        mapper.describe(Self.frame(tag: 5, exposure: 8_000, gain: 1), into: &metadata)
        #expect(metadata.appliedRequest == 0)
        metadata = FrameMetadata()
        mapper.describe(Self.frame(tag: 5, exposure: 19_980, gain: 2), into: &metadata)
        #expect(metadata.appliedRequest == 5)
        #expect(abs(metadata.exposureDuration - 0.01998) < 1e-9)
        #expect(metadata.iso == 200)
        #expect(metadata.exposureState == .custom)
    }

    @Test func aValueTheSensorNeverShowsCompletesEightFramesAfterItWasCarried() {
        let mapper = LibcameraControlMapper(limits: Self.limits())
        _ = mapper.controls(for: ControlRequest.lens(id: 3, focus: .lock(lensPosition: 0.5)))
        var metadata = FrameMetadata()
        for _ in 0..<8 {
            mapper.describe(Self.frame(tag: 3, lens: 9), into: &metadata)
            #expect(metadata.appliedRequest == 0)
        }
        mapper.describe(Self.frame(tag: 3, lens: 9), into: &metadata)
        #expect(metadata.appliedRequest == 3)
        // libcamera's 9 dioptres (near) is Apple's 0.1 (0 nearest ... 1 farthest).
        #expect(abs(metadata.lensPosition - 0.1) < 1e-6)
    }

    @Test func valuesThePipelineDoesNotReportCompleteWhenCarried() {
        let mapper = LibcameraControlMapper(limits: Self.limits())
        _ = mapper.controls(for: ControlRequest(id: 9, whiteBalance: .lock(red: 2, green: 1, blue: 1.5)))
        var metadata = FrameMetadata()
        mapper.describe(Self.frame(tag: 8), into: &metadata)
        #expect(metadata.appliedRequest == 0)
        mapper.describe(Self.frame(tag: 9), into: &metadata)
        #expect(metadata.appliedRequest == 9)
        #expect(metadata.whiteBalanceState == .locked)
    }

    /// A pipeline that reports only timestamps (vimc): the frame's exposure is its duration,
    /// ISO 100, the lens at 1 and unity white-balance gains; a custom exposure or lens
    /// position asked for is reported as asked.
    @Test func valuesTheMetadataLacksAreTheAskedOrTheFrames() {
        let mapper = LibcameraControlMapper(limits: Self.limits())
        var metadata = FrameMetadata()
        metadata.frameDuration = CMTime(value: 1, timescale: 30)
        mapper.describe(Self.frame(tag: 0), into: &metadata)
        #expect(abs(metadata.exposureDuration - 1.0 / 30) < 1e-9)
        #expect(metadata.iso == 100 && metadata.lensPosition == 1)
        let gains = metadata.whiteBalanceGains
        #expect(gains.red == 1 && gains.green == 1 && gains.blue == 1)
        _ = mapper.controls(for: ControlRequest(id: 1, exposure: .custom(duration: 0.01, iso: 400)))
        _ = mapper.controls(for: ControlRequest.lens(id: 2, focus: .lock(lensPosition: 0.5)))
        mapper.describe(Self.frame(tag: 2), into: &metadata)
        #expect(abs(metadata.exposureDuration - 0.01) < 1e-9)
        #expect(metadata.iso == 400 && abs(metadata.lensPosition - 0.5) < 1e-6)
        // Reported values win over the asked ones.
        mapper.describe(Self.frame(tag: 2, exposure: 9_000, gain: 3.5, lens: 2), into: &metadata)
        #expect(abs(metadata.exposureDuration - 0.009) < 1e-9 && metadata.iso == 350 && abs(metadata.lensPosition - 0.8) < 1e-6)
        _ = mapper.controls(for: ControlRequest(id: 3, exposure: .continuous))
        mapper.describe(Self.frame(tag: 3), into: &metadata)
        #expect(abs(metadata.exposureDuration - 1.0 / 30) < 1e-9 && metadata.iso == 100)
    }

    @Test func zoomCropsTheSensorAboutItsCentre() {
        let mapper = LibcameraControlMapper(limits: Self.limits())
        var request = ControlRequest(id: 1)
        request.zoom = .set(factor: 2)
        let controls = mapper.controls(for: request)
        #expect(controls.set == UInt32(OC_LC_HAS_SCALER_CROP))
        #expect(controls.scalerCrop == (1000, 750, 2000, 1500))
    }

    @Test func controlsTheCameraLacksAreLeftOut() {
        var raw = OCLcControlLimits()
        raw.has = UInt32(OC_LC_HAS_BRIGHTNESS)
        let mapper = LibcameraControlMapper(limits: LibcameraLimits(raw))
        let controls = mapper.controls(for: ControlRequest(id: 1, exposure: .custom(duration: 0.01, iso: 400), exposureTargetBias: 1))
        #expect(controls.set == 0)
        #expect(!LibcameraLimits(raw).supportsExposureControl)
    }

    @Test func uvcCamerasAreLeftToV4L2() {
        #expect(LibcameraDeviceProvider.isUVC("\\_SB_.PCI0.XHC_.RHUB.HS07-7:1.0-04f2:b6dd"))
        #expect(!LibcameraDeviceProvider.isUVC("platform/vimc.0 Sensor B"))
        #expect(!LibcameraDeviceProvider.isUVC("/base/soc/i2c0mux/i2c@1/imx708@1a"))
    }
}
