import CLibcameraRuntime
import CaptureCore
import ColorScience
import Dispatch
import Foundation
import Synchronization

// Raw photos, as rpicam-still --raw takes them where the pipeline streams one role at a
// time: the processed still first (a frame of the session's stream, or a larger still),
// then the camera switches to its raw configuration for one frame, whose Bayer mosaic
// goes with the still, and back. The two are a switch apart, not one exposure.

extension LibcameraCamera {
    /// The raw format a raw still of `pixelFormat` (a Core Video Bayer type; 0 for the
    /// camera's first) is taken in.
    func rawFormat(for pixelFormat: UInt32) -> LibcameraRawFormat? {
        pixelFormat == 0 ? rawFormats.first : rawFormats.first { $0.pixelFormat == pixelFormat }
    }

    /// Adds the mosaic of one raw frame to `still` on `switchQueue`: stops the session's
    /// stream, streams the raw role in `format` until its first good frame, and resumes
    /// (`pauseStream`).
    func addRawMosaic(_ format: LibcameraRawFormat, to still: StillCapture) -> Result<StillCapture, BackendError> {
        transition.lock()
        guard let running = state.withLock({ $0 }) else {
            transition.unlock()
            return .failure(.streamFailed("not streaming"))
        }
        let (raw, failure) = pauseStream(running) { firstRawFrame(format, like: running.configuration) }
        transition.unlock()
        reportPauseFailure(failure, to: running)
        return raw.map { raw in
            var still = still
            still.raw = raw
            return still
        }
    }

    /// The first good frame of a raw-role stream of `format` with the controls in force and
    /// the session's frame durations, as a mosaic with its colour description; the camera is
    /// stopped and released before this returns. A pipeline that sends nothing fails the
    /// still after 10 s.
    private func firstRawFrame(_ format: LibcameraRawFormat, like session: StreamConfiguration) -> Result<RawStill, BackendError> {
        guard let api = system.api, let manager = system.manager else { return .failure(.deviceWasDisconnected) }
        var error: Int32 = 0
        guard let handle = api.pointee.open(manager, cameraID, &error) else {
            return .failure(LibcameraStream.openFailure(error))
        }
        defer { api.pointee.close(handle) }
        var settled = OCLcStreamFormat(fourcc: format.fourcc, modifier: format.modifier, width: Int32(format.width), height: Int32(format.height))
        var stride: Int32 = 0, buffers: Int32 = 0
        let configured = api.pointee.configure(handle, Int32(OC_LC_ROLE_RAW), &settled, &stride, &buffers)
        guard configured >= 0,
            let streamed = LibcameraRawFormat(
                fourcc: settled.fourcc, modifier: settled.modifier, width: Int(settled.width), height: Int(settled.height))
        else {
            let why = configured < 0 ? String(cString: strerror(-configured)) : "not a Bayer format"
            return .failure(.streamFailed("libcamera refused the raw configuration \(format.width)x\(format.height) (\(why))"))
        }
        let grab = RawFrameGrab(format: streamed, stride: Int(stride))
        var initial = LibcameraStream.initialControls(carried: carried, mapper: mapper, configuration: session)
        let context = Unmanaged.passUnretained(grab).toOpaque()
        let started = api.pointee.start(handle, &initial, { context, frame in
            guard let context, let frame else { return }
            Unmanaged<RawFrameGrab>.fromOpaque(context).takeUnretainedValue().take(frame.pointee)
        }, context)
        guard started >= 0 else { return .failure(.streamFailed("libcamera could not start the raw stream: \(String(cString: strerror(-started)))")) }
        _ = grab.arrived.wait(timeout: .now() + .seconds(10))
        api.pointee.stop(handle)
        guard let raw = grab.result.withLock({ $0 }) else {
            let why = grab.unpackable.load(ordering: .relaxed) ? "frames too short for it to unpack" : "no frame in 10 s"
            return .failure(.streamFailed("\(why) from the raw configuration \(streamed.width)x\(streamed.height) (stride \(stride))"))
        }
        return .success(raw)
    }
}

/// Keeps the first good frame of a raw stream (libcamera's thread) as a `RawStill`.
private final class RawFrameGrab: Sendable {
    let format: LibcameraRawFormat
    let stride: Int
    let result = Mutex<RawStill?>(nil)
    /// A frame came that was too short for the format (the still fails saying so).
    let unpackable = Atomic<Bool>(false)
    let arrived = DispatchSemaphore(value: 0)

    init(format: LibcameraRawFormat, stride: Int) {
        self.format = format
        self.stride = stride
    }

    func take(_ frame: OCLcFrame) {
        guard result.withLock({ $0 == nil }), frame.error == 0, frame.planeCount > 0, let data = frame.planes.0 else { return }
        let mosaic = RawMosaic(
            width: format.width, height: format.height, blackLevel: RawColour.blackLevel(frame, bits: format.bits),
            whiteLevel: format.whiteLevel, pattern: format.pattern)
        guard format.unpack(data, bytes: frame.planeBytes.0, stride: stride, into: mosaic) else {
            unpackable.store(true, ordering: .relaxed)
            return
        }
        result.withLock { $0 = RawColour.still(mosaic, frame) }
        arrived.signal()
    }
}

/// The colour description a libcamera raw frame's DNG carries, from its metadata.
enum RawColour {
    /// The sensor's black level in the frame's codes: the mean of SensorBlackLevels (16-bit
    /// numbers) scaled to `bits`; 0 where the pipeline reports none (vimc).
    static func blackLevel(_ frame: OCLcFrame, bits: Int) -> Int {
        guard frame.metadata & UInt32(OC_LC_MD_SENSOR_BLACK_LEVELS) != 0 else { return 0 }
        let levels = frame.sensorBlackLevels
        let mean = (Int(levels.0) + Int(levels.1) + Int(levels.2) + Int(levels.3)) / 4
        return mean >> (16 - bits)
    }

    /// The mosaic with its colour, as libcamera's own DNG writer describes it: camera → XYZ is
    /// sRGB's → XYZ after the frame's ColourCorrectionMatrix (camera → sRGB of white-balanced
    /// values; the camera's RGB taken as linear sRGB without one) after its ColourGains, and
    /// the as-shot neutral is 1 / gain (grey without gains), so the neutral maps to D65's
    /// white. Both calibrations are D65's.
    static func still(_ mosaic: RawMosaic, _ frame: OCLcFrame) -> RawStill {
        var ccm = Matrix3x3.identity
        if frame.metadata & UInt32(OC_LC_MD_COLOUR_CORRECTION_MATRIX) != 0 {
            let m = frame.colourCorrectionMatrix
            let supplied = Matrix3x3(rowMajor: [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8].map(Double.init))
            if abs(supplied.determinant) > 1e-2 { ccm = supplied }
        }
        var gains = SIMD3<Double>(1, 1, 1)
        if frame.metadata & UInt32(OC_LC_MD_COLOUR_GAINS) != 0, frame.colourGains.0 > 1e-2, frame.colourGains.1 > 1e-2 {
            gains = SIMD3(Double(frame.colourGains.0), 1, Double(frame.colourGains.1))
        }
        let cameraToXYZ = RGBColorSpace.sRGB.toXYZ * ccm * Matrix3x3(diagonal: gains)
        let xyzToCamera = (cameraToXYZ.inverse ?? RGBColorSpace.sRGB.fromXYZ).rowMajor
        var neutral = 1 / gains
        neutral /= neutral.max()
        return RawStill(
            mosaic: mosaic, colorMatrix1: xyzToCamera, temperature1: 6504, colorMatrix2: xyzToCamera, temperature2: 6504,
            asShotNeutral: neutral)
    }
}
