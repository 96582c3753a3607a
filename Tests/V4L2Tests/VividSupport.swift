import Foundation
import Synchronization
import TestSupport

@testable import OpenCapture
@testable import V4L2Camera

/// Whether this process runs inside the vivid virtual machine (`scripts/vivid-vm`, which
/// `make test-vivid` and `make test` start); elsewhere there is no V4L2 device to test.
enum Vivid {
    static let isPresent = ProcessInfo.processInfo.environment["OPENCAPTURE_VIVID"] == "1"

    /// The vivid camera, found the way applications find external cameras.
    static func device() -> AVCaptureDevice? {
        AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
            .devices.first { $0.modelID.hasPrefix("vivid") }
    }

    static func camera(_ device: AVCaptureDevice) -> V4L2Camera { device.backend as! V4L2Camera }

    /// The device's format of one V4L2 FourCC and size.
    static func format(_ device: AVCaptureDevice, _ code: V4L2PixelCode, _ width: Int, _ height: Int) -> AVCaptureDevice.Format? {
        let camera = camera(device)
        return camera.modes.firstIndex { $0.code == code && $0.width == width && $0.height == height }.map { device.formats[$0] }
    }

    /// Presses or sets one of vivid's controls (fault injection included).
    static func set(_ device: AVCaptureDevice, _ name: String, _ value: Int64 = 1) throws {
        try device.lockForConfiguration()
        defer { device.unlockForConfiguration() }
        try device.setLinuxControl(name, to: value)
    }

    /// Runs a program of the VM (v4l2-ctl, the vivid helpers) and returns its output.
    /// popen, not Foundation's Process: in the VM's minimal userland Process's run-loop
    /// wake-up cannot be made and waiting for the child never returns.
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        ShellCommand.run(([path] + arguments).map(ShellCommand.quoted).joined(separator: " ")).output
    }

    /// Loads vivid afresh after a test unplugged it (its Disconnect control leaves the
    /// device gone until the module is reloaded), so the suites after it find a camera;
    /// answers whether the new device appeared.
    ///
    /// Waits for the unload to be seen before loading: vivid "reconnects" (registers
    /// /dev/video0 again) once the last handle of a disconnected device closes, so a new
    /// camera object appears before the unload; rmmod then removes its node, and until the
    /// hot-plug thread has read that IN_DELETE the camera still says it is connected. Waiting
    /// only for a connected device after loading could see that stale one, which the next
    /// test then finds gone (the ordering noted in be7ad5b).
    @discardableResult
    static func reload() -> Bool {
        _ = try? run("/opt/bin/vivid-unload", [])
        let unloaded = waitUntil(within: .seconds(10)) { device()?.isConnected != true }
        if !unloaded { log("reload: a vivid camera is still listed after vivid-unload") }
        _ = try? run("/opt/bin/vivid-load", [])
        return waitUntil(within: .seconds(20)) { device()?.isConnected == true }
    }

    /// Prints a line the VM run's log keeps (what vivid was asked to do).
    static func log(_ text: String) {
        print("vivid-test: \(text)")
    }
}

/// A session streaming one vivid format to one video data output.
final class VividRig: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    let device: AVCaptureDevice
    private let queue = DispatchQueue(label: "vivid.frames")
    private let state = Mutex<(buffers: [CVPixelBuffer], metadata: [FrameMetadata], drops: [String])>(([], [], []))
    /// How many pixel buffers to keep (keeping them all would starve the pool).
    var keep = 2

    init(device: AVCaptureDevice, format: AVCaptureDevice.Format, pixelFormat: OSType, frameRate: Int32? = nil) throws {
        self.device = device
        super.init()
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: device))
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat]
        output.setSampleBufferDelegate(self, queue: queue)
        session.addOutput(output)
        try device.lockForConfiguration()
        device.activeFormat = format
        if let frameRate {
            device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: frameRate)
            device.activeVideoMaxFrameDuration = CMTime(value: 1, timescale: frameRate)
        }
        device.unlockForConfiguration()
        session.commitConfiguration()
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        state.withLock {
            if $0.buffers.count < keep, let image = sampleBuffer.imageBuffer { $0.buffers.append(image) }
            if let metadata = sampleBuffer.metadata { $0.metadata.append(metadata) }
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let reason = sampleBuffer.attachments[.droppedFrameReason]?.value as? String ?? "?"
        state.withLock { $0.drops.append(reason) }
    }

    var buffers: [CVPixelBuffer] { state.withLock { $0.buffers } }
    var metadata: [FrameMetadata] { state.withLock { $0.metadata } }
    var drops: [String] { state.withLock { $0.drops } }

    /// Waits for `count` frames; returns how many came.
    @discardableResult
    func waitForFrames(_ count: Int, timeout: TimeInterval = 20) -> Int {
        _ = waitUntil(within: .seconds(timeout)) { metadata.count >= count }
        return metadata.count
    }
}

/// Waits for a notification; returns it or nil after `timeout`.
func waitForNotification(_ name: Notification.Name, object: AnyObject? = nil, timeout: TimeInterval = 20, during body: () throws -> Void) rethrows -> Notification? {
    let received = Mutex<NotificationBox?>(nil)
    let observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { note in
        let box = NotificationBox(note: note)
        received.withLock { if $0 == nil { $0 = box } }
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    try body()
    _ = waitUntil(within: .seconds(timeout)) { received.withLock { $0 != nil } }
    return received.withLock { $0?.note }
}

/// Notifications are not Sendable; this one is only read after the poster is done with it.
private struct NotificationBox: @unchecked Sendable {
    let note: Notification
}

/// Counts the frames an output delivers and which devices they came from.
final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "vivid.counter")
    private let state = Mutex<(count: Int, devices: Set<String>)>((0, []))
    var count: Int { state.withLock { $0.count } }
    var devices: Set<String> { state.withLock { $0.devices } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        let id = (connection.inputPorts.first?.input as? AVCaptureDeviceInput)?.device.uniqueID ?? "?"
        state.withLock {
            $0.count += 1
            $0.devices.insert(id)
        }
    }
}
