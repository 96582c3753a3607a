import CaptureCore
import Foundation

/// Focus, zoom and torch requests as V4L2 control writes (part of `V4L2ControlApplier`,
/// on the capture thread).
///
/// - Focus: `.locked` turns focus_automatic_continuous off (the lens stays) and a lens
///   position writes focus_absolute, Apple's 0 (nearest) … 1 (farthest) onto the driver's
///   range from maximum (nearest) to minimum; `.continuousAutoFocus` turns continuous
///   autofocus on; `.autoFocus` presses auto_focus_start where the driver has it, else runs
///   continuous autofocus for `V4L2ControlApplier.settleFrames` frames and locks.
/// - Zoom: zoom_absolute's units are the driver's; `V4L2LensApplier.zoomFactor` maps them
///   (value / minimum when the minimum is positive, as UVC cameras count 100 = 1×; else
///   1 + value / 100). Ramps advance by frame timestamps, ×2^(rate·t), as on iOS.
/// - Torch: flash_led_mode TORCH at flash_torch_intensity scaled by the level; off = NONE.
final class V4L2LensApplier {
    private let controls: [V4L2ControlInfo]
    private var focusOnceFrames = 0
    private var ramp: (target: Double, rate: Double)?
    private var zoom: Double = 1
    private var lastTime: Double?
    private(set) var lensPosition: Float = 1
    private(set) var focusState = FocusState.locked
    private(set) var torchLevel: Float = 0

    init(controls: [V4L2ControlInfo]) {
        self.controls = controls
    }

    private func info(_ id: UInt32) -> V4L2ControlInfo? { controls.first { $0.id == id } }

    @discardableResult
    private func write(_ value: Int64, _ id: UInt32, on device: any V4L2ControlAccess) -> Int64? {
        guard let info = info(id) else { return nil }
        return try? device.setValue(min(max(value, info.minimum), info.maximum), of: id, is64: info.is64Bit)
    }

    /// The zoom factor of a zoom_absolute value, and back.
    static func zoomFactor(_ value: Int64, range: ClosedRange<Int64>) -> Double {
        range.lowerBound > 0 ? Double(value) / Double(range.lowerBound) : 1 + Double(value - range.lowerBound) / 100
    }

    static func zoomValue(_ factor: Double, range: ClosedRange<Int64>) -> Int64 {
        let value = range.lowerBound > 0 ? factor * Double(range.lowerBound) : Double(range.lowerBound) + (factor - 1) * 100
        return min(max(Int64(value.rounded()), range.lowerBound), range.upperBound)
    }

    func apply(_ request: ControlRequest, on device: any V4L2ControlAccess) {
        if let focus = request.focus { applyFocus(focus, on: device) }
        if let zoomControl = request.zoom {
            switch zoomControl {
            case .set(let factor):
                ramp = nil
                setZoom(factor, on: device)
            case .ramp(let target, let rate):
                ramp = (target, abs(rate))
                lastTime = nil
            case .cancelRamp:
                ramp = nil
            }
        }
        if let torch = request.torch {
            switch torch {
            case .on(let level):
                write(2, V4L2ControlID.flashLEDMode, on: device)
                if let intensity = info(V4L2ControlID.flashTorchIntensity) {
                    let span = Double(intensity.maximum - intensity.minimum)
                    write(intensity.minimum + Int64((Double(level) * span).rounded()), V4L2ControlID.flashTorchIntensity, on: device)
                }
                torchLevel = level
            case .off, .auto:
                // No automatic torch on V4L2 (nothing meters for it): the API reports .auto
                // unsupported, so only .off arrives here in practice.
                write(0, V4L2ControlID.flashLEDMode, on: device)
                torchLevel = 0
            }
        }
    }

    private func applyFocus(_ focus: FocusControl, on device: any V4L2ControlAccess) {
        switch focus {
        case .lock(let position):
            write(0, V4L2ControlID.focusAutomaticContinuous, on: device)
            if let position, let range = info(V4L2ControlID.focusAbsolute).map({ $0.minimum...$0.maximum }) {
                let span = Double(range.upperBound - range.lowerBound)
                write(range.upperBound - Int64((Double(position) * span).rounded()), V4L2ControlID.focusAbsolute, on: device)
                lensPosition = position
            }
            focusState = .locked
            focusOnceFrames = 0
        case .continuous:
            write(1, V4L2ControlID.focusAutomaticContinuous, on: device)
            focusState = .continuous
            focusOnceFrames = 0
        case .autoOnce:
            if info(V4L2ControlID.autoFocusStart) != nil {
                write(0, V4L2ControlID.focusAutomaticContinuous, on: device)
                write(1, V4L2ControlID.autoFocusStart, on: device)
            } else {
                write(1, V4L2ControlID.focusAutomaticContinuous, on: device)
            }
            focusState = .autoOnce
            focusOnceFrames = V4L2ControlApplier.settleFrames
        }
    }

    private func setZoom(_ factor: Double, on device: any V4L2ControlAccess) {
        guard let info = info(V4L2ControlID.zoomAbsolute) else { return }
        let range = info.minimum...info.maximum
        if let kept = write(Self.zoomValue(factor, range: range), V4L2ControlID.zoomAbsolute, on: device) {
            zoom = Self.zoomFactor(kept, range: range)
        }
    }

    /// One frame passed at `time` seconds: ramps step, settle-then-lock focus counts down.
    func advance(to time: Double, on device: any V4L2ControlAccess) {
        if let (target, rate) = ramp {
            let elapsed = lastTime.map { max(0, time - $0) } ?? 0
            lastTime = time
            let step = pow(2, rate * elapsed)
            let next = target > zoom ? min(zoom * step, target) : max(zoom / step, target)
            setZoom(next, on: device)
            if next == target { ramp = nil }
        }
        if focusOnceFrames > 0 {
            focusOnceFrames -= 1
            if focusOnceFrames == 0 {
                write(0, V4L2ControlID.focusAutomaticContinuous, on: device)
                focusState = .locked
            }
        }
    }

    func describe(into metadata: inout FrameMetadata) {
        metadata.zoomFactor = zoom
        metadata.isRampingVideoZoom = ramp != nil
        metadata.focusState = focusState
        metadata.isAdjustingFocus = focusOnceFrames > 0
        metadata.lensPosition = lensPosition
        metadata.torchLevel = torchLevel
    }
}
