import CaptureCore
import Foundation

// Bracketed stills on a V4L2 camera: each still's exposure is written to the driver's
// controls, the still is the first frame that shows it (`V4L2BracketPicker`), and the
// stream's own values are written back after it.

extension V4L2Camera {
    /// Three stills per bracket where the device has a control a bracket can set (exposure
    /// time, ISO or gain, exposure bias); 0 (no brackets) otherwise.
    package var bracketedStillLimit: Int {
        let ids = [V4L2ControlID.exposureTimeAbsolute, V4L2ControlID.isoSensitivity, V4L2ControlID.gain, V4L2ControlID.autoExposureBias]
        return controls.contains { ids.contains($0.id) && !$0.isReadOnly } ? 3 : 0
    }

    /// The control writes (in order) that give a still `exposure`; fails naming what the
    /// device lacks for it.
    func bracketWrites(_ exposure: StillExposure) -> Result<[(V4L2ControlInfo, Int64)], BackendError> {
        func control(_ id: UInt32) -> V4L2ControlInfo? { controls.first { $0.id == id && !$0.isReadOnly } }
        func nearest(_ info: V4L2ControlInfo, _ value: Double) -> Int64? {
            info.menu.min { abs((Double($0.name) ?? .infinity) - value) < abs((Double($1.name) ?? .infinity) - value) }?.index
        }
        func clamped(_ info: V4L2ControlInfo, _ value: Double) -> Int64 { min(max(Int64(value.rounded()), info.minimum), info.maximum) }
        let name = descriptor.localizedName
        var writes: [(V4L2ControlInfo, Int64)] = []
        switch exposure {
        case .autoBias(nil), .manual(nil, nil):
            break
        case .autoBias(let bias?):
            // Without the control the device's bias range is 0...0: the stream's exposure.
            if bias == 0 && control(V4L2ControlID.autoExposureBias) == nil { break }
            guard let info = control(V4L2ControlID.autoExposureBias), let index = nearest(info, Double(bias) * 1000) else {
                return .failure(.streamFailed("\(name) has no auto_exposure_bias control for a bracket by exposure bias"))
            }
            writes.append((info, index))
        case .manual(let duration, let iso):
            if let duration {
                guard let mode = control(V4L2ControlID.autoExposure), let time = control(V4L2ControlID.exposureTimeAbsolute) else {
                    return .failure(.streamFailed("\(name) has no exposure_time_absolute control for a bracket by exposure duration"))
                }
                writes += [(mode, V4L2ControlID.exposureManual), (time, clamped(time, duration * 10_000))]
            }
            if let iso {
                if let menu = control(V4L2ControlID.isoSensitivity), let index = nearest(menu, Double(iso) * 1000) {
                    if let auto = control(V4L2ControlID.isoSensitivityAuto) { writes.append((auto, 0)) }
                    writes.append((menu, index))
                } else if let gain = control(V4L2ControlID.gain), gain.defaultValue > 0 {
                    // ISO 100 is the default gain (V4L2StillExposure reads it back the same way).
                    if let auto = control(V4L2ControlID.autoGain) { writes.append((auto, 0)) }
                    writes.append((gain, clamped(gain, Double(iso) / 100 * Double(gain.defaultValue))))
                } else {
                    return .failure(.streamFailed("\(name) has no ISO or gain control for a bracket by ISO"))
                }
            }
        }
        return .success(writes)
    }

    /// Takes one still of a bracket on `switchQueue`: writes the exposure's controls through
    /// the streaming node, picks the first frame showing them, writes the previous values
    /// back (in reverse, so automatic modes come back last) and completes with that frame,
    /// its metadata read from the driver before the values went back.
    func takeBracketStill(
        _ request: StillRequest, _ exposure: StillExposure, completion: @escaping @Sendable (Result<StillCapture, BackendError>) -> Void
    ) {
        transition.lock()
        let result = exposeBracketStill(exposure)
        transition.unlock()
        switch result {
        case .success(let (pick, snapshot)):
            stills.complete(
                PendingStills.Entry(request: request, completion: completion), buffer: pick.buffer, metadata: pick.metadata, device: snapshot)
        case .failure(let error):
            completion(.failure(error))
        }
    }

    /// The writes, the pick and the restore of `takeBracketStill`, under the transition lock.
    private func exposeBracketStill(_ exposure: StillExposure) -> Result<(V4L2BracketPicker.Pick, V4L2ControlSnapshot), BackendError> {
        guard let running = state.withLock({ $0 }) else { return .failure(.streamFailed("not streaming")) }
        let writes: [(V4L2ControlInfo, Int64)]
        switch bracketWrites(exposure) {
        case .success(let planned): writes = planned
        case .failure(let error): return .failure(error)
        }
        let node = running.node
        let saved = writes.compactMap { info, _ in (try? node.value(of: info.id, is64: info.is64Bit)).map { (info, $0) } }
        let picker = V4L2BracketPicker()
        stills.watchFrames { buffer, metadata in picker.offer(buffer, metadata) }
        defer { stills.watchFrames(nil) }
        let frame = running.stream.frameDuration.seconds
        // The look before the write, even right after the previous still's restore.
        guard picker.waitForBaseline(seconds: 2 + 2 * (frame > 0 ? frame : 0.1)) else {
            return .failure(.streamFailed("no frame came before the bracket's exposure was set"))
        }
        for (info, value) in writes {
            do {
                try node.setValue(value, of: info.id, is64: info.is64Bit)
            } catch {
                restore(saved, on: node)
                return .failure(V4L2Camera.backendError(error))
            }
        }
        picker.arm(at: CMClockGetTime(CMClockGetHostTimeClock()).value)
        let pick = picker.wait(seconds: 2 + Double(V4L2BracketPicker.patience + 2) * (frame > 0 ? frame : 0.1))
        let snapshot = V4L2ControlSnapshot(reading: controls, from: node)
        restore(saved, on: node)
        guard let pick else { return .failure(.streamFailed("no frame came after the bracket's exposure was set")) }
        return .success((pick, snapshot))
    }

    private func restore(_ saved: [(V4L2ControlInfo, Int64)], on node: V4L2Node) {
        for (info, value) in saved.reversed() { _ = try? node.setValue(value, of: info.id, is64: info.is64Bit) }
    }
}
