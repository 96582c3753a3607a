import CaptureCore
import Foundation
import Synchronization
import V4L2Camera

/// A camera shared through PipeWire: a `CaptureBackend` over one camera node (a V4L2 or
/// libcamera device PipeWire opened, or an application's Video/Source stream).
///
/// Several programs can read the node at once, so the camera is never "in use". The node's
/// own properties (its PropInfo params: a V4L2 device's driver controls, a test source's
/// pattern) are its `linuxControls` (PipeWireCamera+DriverControls.swift). AVFoundation's
/// exposure, focus and white balance are fixed: the descriptor says so (no exposure control,
/// no autofocus), and requests the session still makes are stamped as applied with nothing
/// changed, as on a device lacking the feature.
package final class PipeWireCamera: CaptureBackend, DisconnectReporting, @unchecked Sendable {
    package let node: PipeWireNode
    package let modes: [PipeWireMode]
    package let descriptor: DeviceDescriptor
    /// The properties the node described when it was found.
    package let controls: [PipeWireControl]
    let connection: PipeWireConnection
    /// The property values this process wrote, by SPA property id (the node reports few back).
    let writtenValues = Mutex<[UInt32: Int64]>([:])
    private let connected = Atomic<Bool>(true)
    private let running = Mutex<Running?>(nil)
    private let disconnectHandler = Mutex<(@Sendable () -> Void)?>(nil)
    /// The last control request made, stamped on the frames after it.
    private let requests = AppliedRequests()

    private struct Running {
        var stream: PipeWireStream
        var configuration: StreamConfiguration
        var sink: any FrameSink
    }

    /// The camera behind `node`, with the formats it offers; nil when it offers none this
    /// backend can convert, or does not answer.
    package init?(node: PipeWireNode, uniqueID: String, connection: PipeWireConnection) {
        guard let offered = connection.modes(of: node.id) else { return nil }
        let modes = offered.compactMap(PipeWireMode.init)
        guard !modes.isEmpty else { return nil }
        self.node = node
        self.modes = modes
        self.connection = connection
        controls = connection.controls(of: node.id) ?? []
        let presets = PipeWireCamera.presetFormats(modes.map(\.mode))
        var descriptor = DeviceDescriptor(
            uniqueID: uniqueID, modelID: node.api.isEmpty ? "PipeWire \(node.mediaClass)" : "PipeWire \(node.api)",
            localizedName: node.description.isEmpty ? node.name : node.description, manufacturer: "PipeWire", position: 0,
            deviceType: "AVCaptureDeviceTypeExternal", formats: modes.map(\.spec), presetFormats: presets,
            defaultFormatIndex: presets["AVCaptureSessionPresetHigh"] ?? 0, lensAperture: 0)
        descriptor.supportsExposureControl = false
        descriptor.focus = FocusCapabilities(hasAutoFocus: false)
        descriptor.supportsAutoTorch = false
        self.descriptor = descriptor
    }

    package var isConnected: Bool { connected.load(ordering: .acquiring) }

    package func onDisconnect(_ handler: @escaping @Sendable () -> Void) {
        disconnectHandler.withLock { $0 = handler }
    }

    /// The node went (its producer stopped or died, or the daemon did): a running stream is
    /// told first, then the registry. Once, whichever thread noticed first.
    package func markDisconnected() {
        guard connected.compareExchange(expected: true, desired: false, ordering: .acquiringAndReleasing).exchanged else { return }
        let stream = running.withLock { running -> Running? in defer { running = nil }; return running }
        if let stream {
            stream.stream.stop()
            stream.sink.backendDidFail(.deviceWasDisconnected)
        }
        disconnectHandler.withLock { $0 }?()
    }

    package func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) {
        guard isConnected else { throw .deviceWasDisconnected }
        guard modes.indices.contains(configuration.formatIndex) else { throw .streamFailed("no format \(configuration.formatIndex)") }
        let stream = try PipeWireStream(
            connection: connection, node: node.id, mode: modes[configuration.formatIndex], configuration: configuration, sink: sink,
            requests: requests
        ) { [weak self] error in self?.streamEnded(error, sink: sink) }
        running.withLock { $0 = Running(stream: stream, configuration: configuration, sink: sink) }
    }

    /// A stream's end that the session did not ask for (on a queue of the stream's).
    private func streamEnded(_ error: BackendError, sink: any FrameSink) {
        if error == .deviceWasDisconnected {
            markDisconnected()
            return
        }
        let ended = running.withLock { running -> Running? in
            guard let current = running, current.sink === sink else { return nil }
            running = nil
            return current
        }
        guard let ended else { return }
        ended.stream.stop()
        ended.sink.backendDidFail(error)
    }

    /// A new format or rate reconnects the stream into the same sink.
    package func update(_ configuration: StreamConfiguration) {
        guard let current = running.withLock({ $0 }), current.configuration != configuration else { return }
        stop()
        do {
            try start(configuration, sink: current.sink)
        } catch {
            current.sink.backendDidFail(error)
        }
    }

    /// Nothing to change on the node; the request counts as applied from the next frame.
    package func apply(_ request: ControlRequest) {
        requests.value.store(request.id, ordering: .releasing)
    }

    package func stop() {
        let stream = running.withLock { running -> Running? in defer { running = nil }; return running }
        stream?.stream.stop()
    }

    /// The format the producer agreed to for the running stream (tests, diagnostics).
    package var negotiatedMode: PipeWireMode? {
        running.withLock { $0?.stream }?.negotiated.flatMap(PipeWireMode.init)
    }

    /// Session presets: exact sizes for the sized presets; High the largest size reaching 25
    /// fps, Medium the size nearest 480x360, Low the smallest, Photo the largest. Among formats
    /// of one size, the cheapest to deliver (`V4L2PixelCode.preference`).
    static func presetFormats(_ modes: [V4L2Mode]) -> [String: Int] {
        guard !modes.isEmpty else { return [:] }
        let indices = Array(modes.indices)
        func area(_ index: Int) -> Int { modes[index].width * modes[index].height }
        func best(_ candidates: [Int]) -> Int? { candidates.min { modes[$0].code.preference < modes[$1].code.preference } }
        var map: [String: Int] = [:]
        for (width, height) in [(352, 288), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)] {
            map["AVCaptureSessionPreset\(width)x\(height)"] = best(indices.filter { modes[$0].width == width && modes[$0].height == height })
        }
        let fluent = indices.filter { (modes[$0].frameRateRanges.map(\.upperBound).max() ?? 0) >= 25 }
        let high = fluent.isEmpty ? indices : fluent
        let highArea = high.map(area).max()!
        map["AVCaptureSessionPresetHigh"] = best(high.filter { area($0) == highArea })
        let largest = indices.map(area).max()!, smallest = indices.map(area).min()!
        map["AVCaptureSessionPresetPhoto"] = best(indices.filter { area($0) == largest })
        map["AVCaptureSessionPresetLow"] = best(indices.filter { area($0) == smallest })
        let medium = indices.map(area).min { abs($0 - 480 * 360) < abs($1 - 480 * 360) }!
        map["AVCaptureSessionPresetMedium"] = best(indices.filter { area($0) == medium })
        return map
    }
}
