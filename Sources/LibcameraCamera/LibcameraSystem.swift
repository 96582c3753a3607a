import CLibcameraRuntime
import CaptureCore
import Foundation
import Synchronization

/// A camera as libcamera lists it (the plug-in's `OCLcCameraInfo` in Swift values).
struct LibcameraCameraInfo: Sendable {
    var id: String
    var model: String
    /// properties::Location: 0 front, 1 back, 2 external, -1 not given.
    var location: Int
    var pixelArrayWidth: Int
    var pixelArrayHeight: Int
}

/// The process's libcamera: the plug-in's functions and its one CameraManager (libcamera
/// allows one per process), started at the first discovery. From libcamera 0.0.5 it runs
/// for the process's life; before, only while it is used (`keepsRunning`, `idle`).
final class LibcameraSystem: @unchecked Sendable {
    let api: UnsafePointer<OCLibcameraAPI>?
    let manager: OpaquePointer?
    /// Why there is no manager, for diagnostics.
    let failure: String?
    /// Told the ID of every camera libcamera (or the plug-in's watch) found unplugged, or
    /// libcamera found plugged in after it started.
    private let changes = ChangeHandlers()

    /// The handlers, in a class so the C callbacks' context can point at it.
    private final class ChangeHandlers: Sendable {
        let removed = Mutex<(@Sendable (String) -> Void)?>(nil)
        let added = Mutex<(@Sendable (String) -> Void)?>(nil)
    }

    /// Loads the plug-in and starts libcamera; without the plug-in, libcamera or any media
    /// device (every libcamera camera is a media-controller device) there are no cameras.
    init() {
        guard oc_libcamera_available() != 0 else {
            (api, manager, failure) = (nil, nil, "libOpenCaptureLibcamera.so is not beside the program")
            return
        }
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.filter { $0.hasPrefix("media") } ?? []
        guard !nodes.isEmpty else {
            (api, manager, failure) = (nil, nil, "no media devices")
            return
        }
        guard let api = oc_libcamera_api() else {
            (self.api, manager, failure) = (nil, nil, String(cString: oc_libcamera_error()))
            return
        }
        // libcamera logs every start (INFO) and sensors it lacks data for (WARN) on stderr;
        // a program that set its own levels keeps them.
        setenv("LIBCAMERA_LOG_LEVELS", "*:ERROR", 0)
        self.api = api
        var error: Int32 = 0
        // The context outlives the manager: this object is kept for the process's life.
        let context = Unmanaged.passUnretained(changes).toOpaque()
        manager = api.pointee.managerCreate(
            { context, id in
                guard let context, let id else { return }
                let changes = Unmanaged<ChangeHandlers>.fromOpaque(context).takeUnretainedValue()
                changes.removed.withLock { $0 }?(String(cString: id))
            },
            { context, id in
                guard let context, let id else { return }
                let changes = Unmanaged<ChangeHandlers>.fromOpaque(context).takeUnretainedValue()
                changes.added.withLock { $0 }?(String(cString: id))
            }, context, &error)
        failure = manager == nil ? "libcamera did not start: \(String(cString: strerror(error)))" : nil
    }

    /// The cameras the last lookup found (`cameras()`), for questions asked often.
    private let lastListed = Mutex<[LibcameraCameraInfo]?>(nil)

    /// Whether libcamera's manager runs for the process's life and announces cameras
    /// plugged in later (libcamera 0.0.5 and later); else it runs only while used, and
    /// cameras plugged in later are found by looking again when a media node appears.
    var keepsRunning: Bool {
        guard let api, let manager else { return true }
        return api.pointee.managerKeepsRunning(manager) != 0
    }

    /// Lets libcamera's manager stop when no camera is open, where it runs only while used.
    func idle() {
        guard let api, let manager else { return }
        api.pointee.managerIdle(manager)
    }

    private let idler = DispatchQueue(label: "opencapture.libcamera.idle")

    /// `idle` in two seconds, off the caller's thread (a stream closes on whatever thread
    /// stops it, and stopping the manager waits for libcamera's thread); a camera opened by
    /// then keeps it running, and a still's stop-and-reopen does not restart it.
    func idleSoon() {
        guard !keepsRunning else { return }
        idler.asyncAfter(deadline: .now() + 2) { [self] in idle() }
    }

    /// The cameras the last lookup found, looking now if none has.
    func cachedCameras() -> [LibcameraCameraInfo] {
        if let listed = lastListed.withLock({ $0 }) { return listed }
        return cameras()
    }

    /// Sets what runs (on libcamera's or the watch thread) when a camera is unplugged.
    func onRemoval(_ handler: @escaping @Sendable (String) -> Void) {
        changes.removed.withLock { $0 = handler }
    }

    /// Sets what runs (on libcamera's thread, which the handler must not call back into
    /// libcamera on) when a camera is plugged in after the first lookup.
    func onAddition(_ handler: @escaping @Sendable (String) -> Void) {
        changes.added.withLock { $0 = handler }
    }

    /// The cameras libcamera lists now.
    func cameras() -> [LibcameraCameraInfo] {
        let found = lookUpCameras()
        lastListed.withLock { $0 = found }
        return found
    }

    private func lookUpCameras() -> [LibcameraCameraInfo] {
        guard let api, let manager else { return [] }
        let count = Int(api.pointee.cameras(manager, nil, 0))
        guard count > 0 else { return [] }
        var infos = [OCLcCameraInfo](repeating: OCLcCameraInfo(), count: count)
        let filled = min(Int(api.pointee.cameras(manager, &infos, Int32(count))), count)
        return infos.prefix(filled).map { info in
            var info = info
            let id = withUnsafeBytes(of: &info.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let model = withUnsafeBytes(of: &info.model) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return LibcameraCameraInfo(
                id: id, model: model, location: Int(info.location), pixelArrayWidth: Int(info.pixelArrayWidth),
                pixelArrayHeight: Int(info.pixelArrayHeight))
        }
    }

    /// A role's formats that downstream can show (the viewfinder's by default), one pixel
    /// format per size (the cheapest to convert), smallest first.
    func formats(of id: String, role: Int32 = Int32(OC_LC_ROLE_VIEWFINDER)) -> [LibcameraFormat] {
        guard let api, let manager else { return [] }
        var best: [String: LibcameraFormat] = [:]
        for format in offeredFormats(of: id, role: role) where format.modifier == 0 {
            guard let code = LibcameraFormat.pixelCode(format.fourcc) else { continue }
            let made = LibcameraFormat(fourcc: format.fourcc, code: code, width: Int(format.width), height: Int(format.height))
            let key = "\(made.width)x\(made.height)"
            if let kept = best[key], kept.code.preference <= code.preference { continue }
            best[key] = made
        }
        return best.values.sorted { ($0.width * $0.height, $0.width) < ($1.width * $1.height, $1.width) }.map { format in
            var format = format
            var tried = OCLcStreamFormat(fourcc: format.fourcc, modifier: 0, width: Int32(format.width), height: Int32(format.height))
            if api.pointee.tryFormat(manager, id, role, &tried) >= 0 {
                (format.streamedWidth, format.streamedHeight) = (Int(tried.width), Int(tried.height))
            }
            return format
        }
    }

    /// The still-capture role's formats that libcamera takes without adjusting them (a
    /// photo's dimensions are promised before it is taken, so a size the pipeline would
    /// change, as vimc's scaler changes widths that are not multiples of 3, is left out),
    /// smallest first.
    func stillFormats(of id: String) -> [LibcameraFormat] {
        return formats(of: id, role: Int32(OC_LC_ROLE_STILL)).filter { $0.streamedWidth == $0.width && $0.streamedHeight == $0.height }
    }

    /// The raw role's Bayer formats libcamera takes as they are, one per colour filter layout
    /// (a sensor has one; vimc's can give any): the largest size, then the most bits, then
    /// unpacked; in libcamera's order. Empty where the pipeline streams no raw (vimc's own
    /// pipeline handler, a UVC webcam).
    func rawFormats(of id: String) -> [LibcameraRawFormat] {
        guard let api, let manager else { return [] }
        let role = Int32(OC_LC_ROLE_RAW)
        var best: [LibcameraRawFormat] = []
        for format in offeredFormats(of: id, role: role) {
            guard
                let raw = LibcameraRawFormat(
                    fourcc: format.fourcc, modifier: format.modifier, width: Int(format.width), height: Int(format.height))
            else { continue }
            var tried = format
            guard api.pointee.tryFormat(manager, id, role, &tried) == 0, tried.fourcc == format.fourcc else { continue }
            let rank = { (f: LibcameraRawFormat) in (f.width * f.height, f.bits, f.packed ? 0 : 1) }
            if let index = best.firstIndex(where: { $0.pattern == raw.pattern }) {
                if rank(raw) > rank(best[index]) { best[index] = raw }
            } else {
                best.append(raw)
            }
        }
        return best
    }

    /// Every pixel format and size `role`'s stream offers (its StreamFormats), as libcamera lists them.
    private func offeredFormats(of id: String, role: Int32) -> [OCLcStreamFormat] {
        guard let api, let manager else { return [] }
        let count = Int(api.pointee.streamFormats(manager, id, role, nil, 0))
        guard count > 0 else { return [] }
        var offered = [OCLcStreamFormat](repeating: OCLcStreamFormat(), count: count)
        let filled = min(Int(api.pointee.streamFormats(manager, id, role, &offered, Int32(count))), count)
        return Array(offered.prefix(max(filled, 0)))
    }

    func limits(of id: String) -> LibcameraLimits? {
        guard let api, let manager else { return nil }
        var limits = OCLcControlLimits()
        guard api.pointee.controlLimits(manager, id, &limits) == 0 else { return nil }
        return LibcameraLimits(limits)
    }
}
