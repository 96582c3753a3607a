import Foundation

/// A sysfs tree in a temporary directory, laid out as the kernel lays out USB video devices:
/// `devices/pci0000:00/<controller>/usb<bus>/<bus>-<port>[.<port>…]/<…>:1.0` with `busnum`,
/// `speed` and `devpath` in each USB device, the controller's `driver` link, and
/// `class/video4linux/<node>/device` linking to the interface (or to a platform device).
struct FakeSysfs {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("fake-sysfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// A host controller bound to `driver` with a root hub per bus.
    func controller(_ address: String, driver: String, buses: [(number: Int, speed: Int)]) throws {
        let directory = "\(root)/devices/pci0000:00/\(address)"
        try make("\(root)/bus/pci/drivers/\(driver)")
        try make(directory)
        try FileManager.default.createSymbolicLink(atPath: "\(directory)/driver", withDestinationPath: "../../../bus/pci/drivers/\(driver)")
        for bus in buses {
            try usbDevice("\(directory)/usb\(bus.number)", bus: bus.number, devpath: "0", speed: bus.speed)
        }
    }

    /// A camera at `devpath` (its root port first) on `bus`, behind the hubs at `through`.
    func camera(_ node: String, bus: Int, devpath: String, speed: Int, controller: String, through hubs: [String] = []) throws {
        var directory = "\(root)/devices/pci0000:00/\(controller)/usb\(bus)"
        for hub in hubs {
            directory += "/\(bus)-\(hub)"
            try usbDevice(directory, bus: bus, devpath: hub, speed: speed)
        }
        directory += "/\(bus)-\(devpath)"
        try usbDevice(directory, bus: bus, devpath: devpath, speed: speed)
        let interface = "\(directory)/\(bus)-\(devpath):1.0"
        try make("\(interface)/video4linux/\(node)")
        try link(node, to: interface)
    }

    /// A node whose device is a platform device (vivid).
    func platform(_ node: String, device: String) throws {
        let directory = "\(root)/devices/platform/\(device)"
        try make("\(directory)/video4linux/\(node)")
        try link(node, to: directory)
    }

    private func link(_ node: String, to device: String) throws {
        let entry = "\(root)/class/video4linux/\(node)"
        try make(entry)
        try FileManager.default.createSymbolicLink(atPath: "\(entry)/device", withDestinationPath: device)
    }

    private func usbDevice(_ directory: String, bus: Int, devpath: String, speed: Int) throws {
        try make(directory)
        for (file, value) in [("busnum", "\(bus)"), ("devpath", devpath), ("speed", "\(speed)")] {
            try "\(value)\n".write(toFile: "\(directory)/\(file)", atomically: false, encoding: .utf8)
        }
    }

    private func make(_ directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
}
