import CaptureCore
import Foundation
import Synchronization
import Testing
import TestSupport

@testable import OpenCapture
@testable import V4L2Camera

/// A multi-cam session's `hardwareCost` over USB: webcams sharing a USB bandwidth domain add
/// their isochronous bytes against its periodic budget, read from a fake sysfs tree.
@Suite("V4L2 USB bandwidth in hardwareCost", .serialized)
struct V4L2USBBandwidthTests {
    static let yuyv1080 = V4L2Mode(code: .yuyv, width: 1920, height: 1080, intervals: .discrete([.init(1, 30)]))
    static let mjpeg1080 = V4L2Mode(code: .mjpeg, width: 1920, height: 1080, intervals: .discrete([.init(1, 30)]))
    /// High speed: 80 % of 480 Mb/s.
    static let usb2Budget = 480e6 * 0.8 / 8

    @Test func locatesTheUSBDeviceBehindANode() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.controller("0000:00:14.0", driver: "xhci_hcd", buses: [(1, 480), (2, 5000)])
        try sysfs.camera("video0", bus: 1, devpath: "3", speed: 480, controller: "0000:00:14.0")
        try sysfs.camera("video2", bus: 1, devpath: "4.2", speed: 480, controller: "0000:00:14.0", through: ["4"])
        try sysfs.camera("video4", bus: 2, devpath: "1", speed: 5000, controller: "0000:00:14.0")
        try sysfs.platform("video9", device: "vivid.0")
        #expect(V4L2USBLink.locate(node: "/dev/video0", sysfs: sysfs.root) == V4L2USBLink(busNumber: 1, rootPort: 3, speed: 480, hostDriver: "xhci_hcd"))
        let behindHub = try #require(V4L2USBLink.locate(node: "video2", sysfs: sysfs.root))
        #expect(behindHub.rootPort == 4 && behindHub.domain == "usb1-port4")
        let superSpeed = try #require(V4L2USBLink.locate(node: "video4", sysfs: sysfs.root))
        #expect(superSpeed.speed == 5000 && abs(superSpeed.periodicBudget - 450e6) < 1)
        #expect(V4L2USBLink.locate(node: "video9", sysfs: sysfs.root) == nil, "vivid is on no bus")
        #expect(V4L2USBLink.locate(node: "video7", sysfs: sysfs.root) == nil, "no such node")
    }

    /// Two YUYV 1080p30 webcams behind one hub on one USB 2 root port: each needs
    /// 1920×1080×2×30 bytes a second, 2.59 times the port's budget; together 5.18.
    @Test func twoRawCamerasOnOneUSB2BusCostMoreThanOneAndDoNotRun() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.controller("0000:00:14.0", driver: "xhci_hcd", buses: [(1, 480)])
        try sysfs.camera("video0", bus: 1, devpath: "2.1", speed: 480, controller: "0000:00:14.0", through: ["2"])
        try sysfs.camera("video2", bus: 1, devpath: "2.2", speed: 480, controller: "0000:00:14.0", through: ["2"])
        try Self.withCameras(["video0", "video2"], sysfs: sysfs, code: .yuyv) { session in
            let expected = 2 * 1920 * 1080 * 2 * 30 / Self.usb2Budget
            #expect(abs(Double(session.hardwareCost) - expected) < 1e-3, "hardwareCost \(session.hardwareCost), expected \(expected)")
            let errors = Mutex<[Int]>([])
            let observer = NotificationCenter.default.addObserver(
                forName: AVCaptureSession.runtimeErrorNotification, object: session, queue: nil
            ) { note in
                if let error = note.userInfo?[AVCaptureSessionErrorKey] as? NSError { errors.withLock { $0.append(error.code) } }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            session.startRunning()
            eventually("the overage was reported") { !errors.withLock { $0 }.isEmpty }
            #expect(!session.isRunning)
            #expect(errors.withLock { $0 } == [AVError.Code.sessionHardwareCostOverage.rawValue])
        }
    }

    /// Motion JPEG at 1080p30 is estimated at 4 bits a pixel (31.1 MB/s), capped at one
    /// high-bandwidth isochronous endpoint (3 × 1024 bytes a microframe, 24.576 MB/s): two
    /// such cameras on one EHCI bus take 49.152 of its 48 MB/s, a cost of 1.024.
    @Test func twoMotionJPEGCamerasOnOneUSB2BusJustExceedIt() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.controller("0000:00:1d.0", driver: "ehci-pci", buses: [(3, 480)])
        try sysfs.camera("video0", bus: 3, devpath: "1", speed: 480, controller: "0000:00:1d.0")
        try sysfs.camera("video2", bus: 3, devpath: "2", speed: 480, controller: "0000:00:1d.0")
        try Self.withCameras(["video0", "video2"], sysfs: sysfs, code: .mjpeg) { session in
            #expect(abs(session.hardwareCost - 1.024) < 1e-4, "hardwareCost \(session.hardwareCost)")
        }
    }

    /// The same two Motion JPEG cameras on two buses (or two xHCI root ports) take 0.512 of
    /// each; raw 1080p30 on two USB 3 ports takes 0.28 of each, so the pixel-rate rule (two
    /// 1080p30 streams: 0.5) is the cost.
    @Test func camerasOnDifferentBusesShareNothing() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.controller("0000:00:1d.0", driver: "ehci-pci", buses: [(3, 480), (4, 480)])
        try sysfs.controller("0000:00:14.0", driver: "xhci_hcd", buses: [(1, 480), (2, 5000)])
        try sysfs.camera("video0", bus: 3, devpath: "1", speed: 480, controller: "0000:00:1d.0")
        try sysfs.camera("video2", bus: 4, devpath: "1", speed: 480, controller: "0000:00:1d.0")
        try sysfs.camera("video4", bus: 1, devpath: "1", speed: 480, controller: "0000:00:14.0")
        try sysfs.camera("video6", bus: 1, devpath: "2", speed: 480, controller: "0000:00:14.0")
        try sysfs.camera("video8", bus: 2, devpath: "3", speed: 5000, controller: "0000:00:14.0")
        try sysfs.camera("video10", bus: 2, devpath: "4", speed: 5000, controller: "0000:00:14.0")
        for pair in [["video0", "video2"], ["video4", "video6"]] {
            try Self.withCameras(pair, sysfs: sysfs, code: .mjpeg) { session in
                #expect(abs(session.hardwareCost - 0.512) < 1e-4, "\(pair): hardwareCost \(session.hardwareCost)")
            }
        }
        try Self.withCameras(["video8", "video10"], sysfs: sysfs, code: .yuyv) { session in
            #expect(abs(session.hardwareCost - 0.5) < 1e-4, "hardwareCost \(session.hardwareCost)")
        }
    }

    /// Cameras off USB (vivid) keep the pixel-rate rule alone.
    @Test func camerasOnNoBusKeepThePixelRateRule() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.platform("video0", device: "vivid.0")
        try sysfs.platform("video1", device: "vivid.1")
        try Self.withCameras(["video0", "video1"], sysfs: sysfs, code: .yuyv) { session in
            #expect(abs(session.hardwareCost - 0.5) < 1e-4, "hardwareCost \(session.hardwareCost)")
        }
    }

    /// `supportedMultiCamDeviceSets` leaves out two cameras on one USB 2 port that cannot
    /// stream together at any of their formats (two 1080p30 cameras: raw 2.59 each, Motion
    /// JPEG 0.512 each); a 640x480 YUYV mode (0.384 each) lets them, as do two ports.
    @Test func multiCamSetsLeaveOutCamerasTheirBusCannotCarryTogether() throws {
        let sysfs = try FakeSysfs()
        defer { sysfs.remove() }
        try sysfs.controller("0000:00:14.0", driver: "xhci_hcd", buses: [(1, 480)])
        try sysfs.camera("video0", bus: 1, devpath: "2.1", speed: 480, controller: "0000:00:14.0", through: ["2"])
        try sysfs.camera("video2", bus: 1, devpath: "2.2", speed: 480, controller: "0000:00:14.0", through: ["2"])
        try sysfs.camera("video4", bus: 1, devpath: "3", speed: 480, controller: "0000:00:14.0")
        let vga = V4L2Mode(code: .yuyv, width: 640, height: 480, intervals: .discrete([.init(1, 30)]))
        func sets(_ nodes: [String], modes: [V4L2Mode]) -> [Set<String>] {
            let cameras = nodes.map { FakeUVCCamera(node: $0, sysfs: sysfs.root, modes: modes) }
            return DeviceRegistry(providers: [FakeUVCProvider(cameras: cameras)]).withCurrent {
                AVCaptureDevice.DiscoverySession(deviceTypes: [.external], mediaType: .video, position: .unspecified)
                    .supportedMultiCamDeviceSets.map { Set($0.map(\.uniqueID)) }
            }
        }
        let ids = { (nodes: [String]) in Set(nodes.map { FakeUVCCamera(node: $0, sysfs: sysfs.root, modes: [Self.yuyv1080]).descriptor.uniqueID }) }
        #expect(sets(["video0", "video2"], modes: [Self.yuyv1080, Self.mjpeg1080]).isEmpty)
        #expect(sets(["video0", "video2"], modes: [Self.yuyv1080, Self.mjpeg1080, vga]) == [ids(["video0", "video2"])])
        #expect(sets(["video0", "video4"], modes: [Self.yuyv1080, Self.mjpeg1080]) == [ids(["video0", "video4"])])
    }

    /// Runs `body` with a multi-cam session holding one fake UVC camera per node, each at
    /// its 1080p30 format of `code`.
    static func withCameras(_ nodes: [String], sysfs: FakeSysfs, code: V4L2PixelCode, _ body: (AVCaptureMultiCamSession) throws -> Void) throws {
        let cameras = nodes.map { FakeUVCCamera(node: $0, sysfs: sysfs.root, modes: [yuyv1080, mjpeg1080]) }
        try DeviceRegistry(providers: [FakeUVCProvider(cameras: cameras)]).withCurrent {
            let session = AVCaptureMultiCamSession()
            session.beginConfiguration()
            for camera in cameras {
                let device = try #require(AVCaptureDevice(uniqueID: camera.descriptor.uniqueID))
                let format = try #require(device.formats.first { $0.formatDescription.mediaSubType.rawValue == code.mediaSubType })
                try device.lockForConfiguration()
                device.activeFormat = format
                device.unlockForConfiguration()
                let input = try AVCaptureDeviceInput(device: device)
                session.addInputWithNoConnections(input)
                let output = AVCaptureVideoDataOutput()
                session.addOutputWithNoConnections(output)
                session.addConnection(AVCaptureConnection(inputPorts: input.ports, output: output))
            }
            session.commitConfiguration()
            try body(session)
            session.stopRunning()
        }
    }
}

/// A UVC camera as V4L2 lists it (`V4L2DeviceProfile` over its modes), on the USB link its
/// node has in a fake sysfs, reporting bandwidth as `V4L2Camera` does. It never streams:
/// these sessions are refused or not started.
final class FakeUVCCamera: CaptureBackend, BusBandwidthReporting, @unchecked Sendable {
    let descriptor: DeviceDescriptor
    let modes: [V4L2Mode]
    let link: V4L2USBLink?

    init(node: String, sysfs: String, modes: [V4L2Mode]) {
        self.modes = modes
        self.link = V4L2USBLink.locate(node: node, sysfs: sysfs)
        let capability = V4L2Capability(driver: "uvcvideo", card: "Webcam \(node)", busInfo: "usb-\(node)", deviceCaps: 0x0400_0001)
        self.descriptor = V4L2DeviceProfile.descriptor(capability: capability, modes: modes, controls: [], current: nil, path: "/dev/\(node)")
    }

    var isConnected: Bool { true }
    func start(_ configuration: StreamConfiguration, sink: any FrameSink) throws(BackendError) { throw .streamFailed("a fake camera") }
    func update(_ configuration: StreamConfiguration) {}
    func apply(_ request: ControlRequest) {}
    func stop() {}

    func busBandwidth(formatIndex: Int, framesPerSecond: Double) -> BusBandwidthUse? {
        link?.busBandwidth(of: modes[formatIndex], framesPerSecond: framesPerSecond)
    }
}

final class FakeUVCProvider: DeviceProvider {
    let cameras: [FakeUVCCamera]
    init(cameras: [FakeUVCCamera]) { self.cameras = cameras }
    func discover(reporting report: @escaping @Sendable (DeviceChange) -> Void) -> [any CaptureBackend] { cameras }
}
