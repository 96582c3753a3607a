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
/// allows one per process), started at the first discovery and kept for the process's life.
final class LibcameraSystem: @unchecked Sendable {
    let api: UnsafePointer<OCLibcameraAPI>?
    let manager: OpaquePointer?
    /// Why there is no manager, for diagnostics.
    let failure: String?
    /// Told the ID of every camera libcamera (or the plug-in's watch) found unplugged.
    private let removal = RemovalHandler()

    /// The removal handler, in a class so the C callback's context can point at it.
    private final class RemovalHandler: Sendable {
        let handler = Mutex<(@Sendable (String) -> Void)?>(nil)
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
        let context = Unmanaged.passUnretained(removal).toOpaque()
        manager = api.pointee.managerCreate({ context, id in
            guard let context, let id else { return }
            let removal = Unmanaged<RemovalHandler>.fromOpaque(context).takeUnretainedValue()
            removal.handler.withLock { $0 }?(String(cString: id))
        }, context, &error)
        failure = manager == nil ? "libcamera did not start: \(String(cString: strerror(error)))" : nil
    }

    /// Sets what runs (on libcamera's or the watch thread) when a camera is unplugged.
    func onRemoval(_ handler: @escaping @Sendable (String) -> Void) {
        removal.handler.withLock { $0 = handler }
    }

    /// The cameras libcamera lists now.
    func cameras() -> [LibcameraCameraInfo] {
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
        let count = Int(api.pointee.streamFormats(manager, id, role, nil, 0))
        guard count > 0 else { return [] }
        var offered = [OCLcStreamFormat](repeating: OCLcStreamFormat(), count: count)
        let filled = min(Int(api.pointee.streamFormats(manager, id, role, &offered, Int32(count))), count)
        var best: [String: LibcameraFormat] = [:]
        for format in offered.prefix(filled) where format.modifier == 0 {
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

    func limits(of id: String) -> LibcameraLimits? {
        guard let api, let manager else { return nil }
        var limits = OCLcControlLimits()
        guard api.pointee.controlLimits(manager, id, &limits) == 0 else { return nil }
        return LibcameraLimits(limits)
    }
}
