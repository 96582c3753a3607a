import CaptureCore
import Foundation
import Glibc

/// Where a V4L2 node's device sits on USB, read from sysfs: its bus, root port, speed and
/// host controller, hence the bandwidth domain it shares with other devices and that
/// domain's periodic budget.
///
/// `/sys/class/video4linux/videoN/device` links to the USB interface
/// (`…/usb1/1-1/1-1:1.0`); the first ancestor holding `busnum` and `speed` is the USB device
/// (`1-1`); `devpath` (`1`, `1.2` behind a hub) starts with the root port; the root hub
/// `usbN`'s parent is the host controller, whose `driver` link names it (`xhci_hcd`,
/// `ehci-pci`). The sysfs root is a parameter so tests can build a fake tree.
package struct V4L2USBLink: Sendable, Equatable {
    package var busNumber: Int
    /// The root-hub port the device hangs from (directly or through hubs).
    package var rootPort: Int
    /// Signalling rate in Mb/s as sysfs `speed` gives it: 1.5, 12, 480, 5000, 10000, 20000.
    package var speed: Double
    /// The host controller's driver name (`xhci_hcd`, `ehci-pci`, …), empty when unknown.
    package var hostDriver: String

    package init(busNumber: Int, rootPort: Int, speed: Double, hostDriver: String) {
        self.busNumber = busNumber
        self.rootPort = rootPort
        self.speed = speed
        self.hostDriver = hostDriver
    }

    /// The link of the device behind `node` (`/dev/video0` or `video0`); nil when sysfs does
    /// not lead to a USB device (vivid and other platform devices, a missing entry).
    package static func locate(node: String, sysfs: String = "/sys") -> V4L2USBLink? {
        let name = (node as NSString).lastPathComponent
        guard let interface = resolved("\(sysfs)/class/video4linux/\(name)/device"), let root = resolved(sysfs) else { return nil }
        var directory = interface
        while directory.hasPrefix(root), directory.count > root.count {
            if let bus = number(directory, "busnum"), let speed = text(directory, "speed").flatMap(Double.init) {
                let port = text(directory, "devpath")?.split(separator: ".").first.flatMap { Int($0) } ?? 0
                return V4L2USBLink(busNumber: bus, rootPort: port, speed: speed, hostDriver: hostDriver(above: directory, bus: bus))
            }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return nil
    }

    /// Devices in one domain share one periodic budget. An xHCI host keeps a bandwidth
    /// domain per root port (Linux's xhci driver checks bandwidth with one table per root
    /// port), so devices share only behind one root port; on an EHCI (or unknown) host the
    /// whole bus is one domain.
    package var domain: String {
        hostDriver.contains("xhci") ? "usb\(busNumber)-port\(rootPort)" : "usb\(busNumber)"
    }

    /// Bytes per second the domain grants periodic transfers: at high speed 80 % of
    /// 480 Mb/s (the share of a microframe USB 2.0 lets periodic transfers take); at full and
    /// low speed 90 % of the frame; at SuperSpeed 90 % of the link after its line coding
    /// (8b/10b at 5 Gb/s, 128b/132b at 10 and 20 Gb/s).
    package var periodicBudget: Double {
        switch speed {
        case ..<13: speed * 1e6 * 0.9 / 8
        case ..<500: speed * 1e6 * 0.8 / 8
        case ..<6000: speed * 1e6 * 0.8 * 0.9 / 8
        default: speed * 1e6 * 128 / 132 * 0.9 / 8
        }
    }

    /// The most one isochronous endpoint moves per second: 1023 bytes a 1 ms frame at full
    /// speed, 3 × 1024 bytes a 125 µs microframe at high speed, 3 × 16 × 1024 at SuperSpeed.
    package var endpointLimit: Double {
        switch speed {
        case ..<13: 1023 * 1000
        case ..<500: 3 * 1024 * 8000
        default: 3 * 16 * 1024 * 8000
        }
    }

    /// What `mode` at `framesPerSecond` takes of the domain. Uncompressed formats need their
    /// frame bytes every frame (YUYV/UYVY 2 bytes a pixel, NV12/YU12 1.5, RGB 3). Motion
    /// JPEG's size is the encoder's (UVC's dwMaxPayloadTransferSize, which picks the
    /// isochronous alternate setting, is not reachable through V4L2): estimated at
    /// `mjpegBytesPerPixel` (4 bits a pixel, a detailed scene at the quality webcams use),
    /// at most what one isochronous endpoint carries, since a camera asks for no more than
    /// its largest alternate setting.
    package func busBandwidth(of mode: V4L2Mode, framesPerSecond: Double) -> BusBandwidthUse {
        let pixels = Double(mode.width) * Double(mode.height) * framesPerSecond
        let bytes: Double =
            switch mode.code {
            case .yuyv, .uyvy: pixels * 2
            case .nv12, .yu12: pixels * 1.5
            case .rgb24, .bgr24: pixels * 3
            case .mjpeg: min(pixels * Self.mjpegBytesPerPixel, endpointLimit)
            }
        return BusBandwidthUse(domain: domain, budget: periodicBudget, bytesPerSecond: bytes)
    }

    /// Motion JPEG's estimated size: 0.5 bytes (4 bits) a pixel.
    package static let mjpegBytesPerPixel = 0.5

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    private static func text(_ directory: String, _ file: String) -> String? {
        (try? String(contentsOfFile: "\(directory)/\(file)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func number(_ directory: String, _ file: String) -> Int? { text(directory, file).flatMap { Int($0) } }

    /// The driver of the controller above root hub `usb<bus>`, from its `driver` link.
    private static func hostDriver(above device: String, bus: Int) -> String {
        var directory = device
        while directory.count > 1 {
            if (directory as NSString).lastPathComponent == "usb\(bus)" {
                let controller = (directory as NSString).deletingLastPathComponent
                guard let driver = resolved("\(controller)/driver") else { return "" }
                return (driver as NSString).lastPathComponent
            }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return ""
    }
}
