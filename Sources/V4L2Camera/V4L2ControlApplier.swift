import CaptureCore
import Synchronization

/// Turns queued `ControlRequest`s into V4L2 control writes on the capture thread, between
/// two dequeues, so a request's completion handler gets the timestamp of the first frame
/// dequeued after the driver took the new values (the rule `docs/ARCHITECTURE.md` states).
///
/// Mapped where the device has the controls:
/// - exposure modes → auto_exposure (AUTO, or APERTURE_PRIORITY on UVC cameras that lack
///   AUTO; MANUAL for locked and custom); custom duration → exposure_time_absolute
///   (100 µs units); custom ISO → iso_sensitivity (nearest menu entry) with
///   iso_sensitivity_auto MANUAL; bias → auto_exposure_bias (0.001 EV, nearest entry);
/// - white-balance modes → white_balance_automatic; locked gains → white_balance_temperature
///   (through `V4L2WhiteBalanceModel`) and red/blue_balance (default × gain ratio).
/// - focus, zoom and torch: see `V4L2LensApplier`.
/// `.autoExpose` and `.autoWhiteBalance` run the driver's automatic mode for
/// `settleFrames` frames, then lock what it found, as Apple's settle-then-lock modes do.
package final class V4L2ControlApplier: Sendable {
    /// Frames an "auto once" mode runs before it locks.
    package static let settleFrames = 30

    private let pending = Mutex<[ControlRequest]>([])
    private let lastApplied = Atomic<UInt64>(0)
    private let state = Mutex(State())
    private let controls: [V4L2ControlInfo]
    /// Focus, zoom and torch; touched only on the capture thread (and in tests).
    private let lens: Mutex<V4L2LensApplier>

    private struct State {
        var exposureSeconds: Double = 0
        var exposureState = ExposureState.continuous
        var exposureOnceFrames = 0
        var whiteBalanceGains: (red: Float, green: Float, blue: Float) = (1, 1, 1)
        var whiteBalanceState = WhiteBalanceState.continuous
        var whiteBalanceOnceFrames = 0
        var bias: Float = 0
        var iso: Float = 0
    }

    package init(controls: [V4L2ControlInfo]) {
        self.controls = controls
        lens = Mutex(V4L2LensApplier(controls: controls))
    }

    package func enqueue(_ request: ControlRequest) {
        pending.withLock { $0.append(request) }
    }

    /// Applies everything queued and advances the settle-then-lock modes by one frame;
    /// returns the id of the newest request applied so far.
    @discardableResult
    package func applyPending(on device: any V4L2ControlAccess, at time: Double = 0) -> UInt64 {
        let requests = pending.withLock { queue -> [ControlRequest] in
            defer { queue.removeAll(keepingCapacity: true) }
            return queue
        }
        for request in requests {
            apply(request, on: device)
            lastApplied.store(request.id, ordering: .releasing)
        }
        advanceOnceModes(on: device)
        lens.withLock { $0.advance(to: time, on: device) }
        return lastApplied.load(ordering: .acquiring)
    }

    /// Stamps what the controls say on a frame's metadata.
    package func describe(into metadata: inout FrameMetadata) {
        state.withLock { state in
            metadata.exposureDuration = state.exposureSeconds
            metadata.exposureState = state.exposureState
            metadata.exposureTargetBias = state.bias
            metadata.iso = state.iso
            metadata.whiteBalanceGains = state.whiteBalanceGains
            metadata.whiteBalanceState = state.whiteBalanceState
        }
        lens.withLock { $0.describe(into: &metadata) }
    }

    private func info(_ id: UInt32) -> V4L2ControlInfo? { controls.first { $0.id == id } }

    @discardableResult
    private func write(_ value: Int64, _ id: UInt32, on device: any V4L2ControlAccess) -> Int64? {
        guard let info = info(id) else { return nil }
        let clamped = min(max(value, info.minimum), info.maximum)
        return try? device.setValue(clamped, of: id, is64: info.is64Bit)
    }

    /// The menu entry nearest `value` (integer menus list their values by index).
    private func nearestMenuIndex(_ id: UInt32, to value: Double) -> Int64? {
        info(id)?.menu.min { abs((Double($0.name) ?? .infinity) - value) < abs((Double($1.name) ?? .infinity) - value) }?.index
    }

    private func apply(_ request: ControlRequest, on device: any V4L2ControlAccess) {
        if let exposure = request.exposure { applyExposure(exposure, on: device) }
        if let bias = request.exposureTargetBias, let index = nearestMenuIndex(V4L2ControlID.autoExposureBias, to: Double(bias) * 1000) {
            write(index, V4L2ControlID.autoExposureBias, on: device)
            state.withLock { $0.bias = bias }
        }
        if let whiteBalance = request.whiteBalance { applyWhiteBalance(whiteBalance, on: device) }
        lens.withLock { $0.apply(request, on: device) }
    }

    private func applyExposure(_ exposure: ExposureControl, on device: any V4L2ControlAccess) {
        switch exposure {
        case .continuous, .autoOnce:
            let hasAuto = info(V4L2ControlID.autoExposure)?.menu.contains { $0.index == V4L2ControlID.exposureAuto } ?? false
            write(hasAuto ? V4L2ControlID.exposureAuto : V4L2ControlID.exposureAperturePriority, V4L2ControlID.autoExposure, on: device)
            state.withLock {
                $0.exposureState = exposure == .continuous ? .continuous : .autoOnce
                $0.exposureOnceFrames = exposure == .continuous ? 0 : Self.settleFrames
            }
        case .lockCurrent:
            lockExposure(on: device)
        case .custom(let duration, let iso):
            write(V4L2ControlID.exposureManual, V4L2ControlID.autoExposure, on: device)
            if let duration, let kept = write(Int64((duration * 10_000).rounded()), V4L2ControlID.exposureTimeAbsolute, on: device) {
                state.withLock { $0.exposureSeconds = Double(kept) / 10_000 }
            }
            if let iso, let index = nearestMenuIndex(V4L2ControlID.isoSensitivity, to: Double(iso) * 1000) {
                write(0, V4L2ControlID.isoSensitivityAuto, on: device)
                write(index, V4L2ControlID.isoSensitivity, on: device)
                state.withLock { $0.iso = iso }
            }
            state.withLock { $0.exposureState = .custom }
        }
    }

    /// Switches to manual exposure at the time the automatic mode found.
    private func lockExposure(on device: any V4L2ControlAccess) {
        let current = try? device.value(of: V4L2ControlID.exposureTimeAbsolute, is64: false)
        write(V4L2ControlID.exposureManual, V4L2ControlID.autoExposure, on: device)
        if let current, let kept = write(current, V4L2ControlID.exposureTimeAbsolute, on: device) {
            state.withLock { $0.exposureSeconds = Double(kept) / 10_000 }
        }
        state.withLock {
            $0.exposureState = .locked
            $0.exposureOnceFrames = 0
        }
    }

    private func applyWhiteBalance(_ whiteBalance: WhiteBalanceControl, on device: any V4L2ControlAccess) {
        switch whiteBalance {
        case .continuous, .autoOnce:
            write(1, V4L2ControlID.autoWhiteBalance, on: device)
            state.withLock {
                $0.whiteBalanceState = whiteBalance == .continuous ? .continuous : .autoOnce
                $0.whiteBalanceOnceFrames = whiteBalance == .continuous ? 0 : Self.settleFrames
            }
        case .lockCurrent:
            lockWhiteBalance(on: device)
        case .lock(let red, let green, let blue):
            write(0, V4L2ControlID.autoWhiteBalance, on: device)
            let temperature = V4L2WhiteBalanceModel.temperature(red: red, green: green, blue: blue)
            write(Int64(temperature.rounded()), V4L2ControlID.whiteBalanceTemperature, on: device)
            for (id, gain) in [(V4L2ControlID.redBalance, red), (V4L2ControlID.blueBalance, blue)] {
                guard let info = info(id) else { continue }
                write(Int64((Double(info.defaultValue) * Double(gain / green)).rounded()), id, on: device)
            }
            state.withLock {
                $0.whiteBalanceGains = (red, green, blue)
                $0.whiteBalanceState = .locked
            }
        }
    }

    /// Switches automatic white balance off; the driver holds its last temperature.
    private func lockWhiteBalance(on device: any V4L2ControlAccess) {
        write(0, V4L2ControlID.autoWhiteBalance, on: device)
        let kelvin = try? device.value(of: V4L2ControlID.whiteBalanceTemperature, is64: false)
        state.withLock {
            if let kelvin, kelvin > 0 { $0.whiteBalanceGains = V4L2WhiteBalanceModel.gains(temperature: Double(kelvin)) }
            $0.whiteBalanceState = .locked
            $0.whiteBalanceOnceFrames = 0
        }
    }

    private func advanceOnceModes(on device: any V4L2ControlAccess) {
        let (exposureDone, whiteBalanceDone) = state.withLock { state -> (Bool, Bool) in
            var done = (false, false)
            if state.exposureOnceFrames > 0 {
                state.exposureOnceFrames -= 1
                done.0 = state.exposureOnceFrames == 0
            }
            if state.whiteBalanceOnceFrames > 0 {
                state.whiteBalanceOnceFrames -= 1
                done.1 = state.whiteBalanceOnceFrames == 0
            }
            return done
        }
        if exposureDone { lockExposure(on: device) }
        if whiteBalanceDone { lockWhiteBalance(on: device) }
    }
}
