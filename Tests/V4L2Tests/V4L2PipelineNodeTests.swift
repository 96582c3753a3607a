import CV4L2
import Foundation
import Testing

@testable import V4L2Camera

/// Media-controller nodes (V4L2_CAP_IO_MC) share their driver's bus position: each gets its
/// video device name in its unique ID, so vimc's three capture nodes are three IDs; other
/// nodes keep the bus position alone.
@Suite("V4L2: media-controller nodes")
struct V4L2PipelineNodeTests {
    static let captures = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)

    @Test func pipelineNodesAreToldApartByTheirName() throws {
        let sysfs = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: sysfs) }
        for (node, name) in [("video7", "Raw Capture 0"), ("video8", "Raw Capture 1")] {
            let folder = sysfs.appendingPathComponent("class/video4linux/\(node)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("\(name)\n".utf8).write(to: folder.appendingPathComponent("name"))
        }
        let pipeline = V4L2Capability(driver: "vimc", card: "vimc", busInfo: "platform:vimc", deviceCaps: Self.captures | UInt32(V4L2_CAP_IO_MC))
        #expect(pipeline.isMediaControllerCentric)
        let first = V4L2DeviceProfile.uniqueID(capability: pipeline, path: "/dev/video7", sysfs: sysfs.path)
        let second = V4L2DeviceProfile.uniqueID(capability: pipeline, path: "/dev/video8", sysfs: sysfs.path)
        #expect(first == "v4l2:platform:vimc:Raw Capture 0" && second == "v4l2:platform:vimc:Raw Capture 1")
        // No name in sysfs: the node's.
        #expect(V4L2DeviceProfile.uniqueID(capability: pipeline, path: "/dev/video9", sysfs: sysfs.path) == "v4l2:platform:vimc:video9")
        let plain = V4L2Capability(driver: "vivid", card: "vivid", busInfo: "platform:vivid-000", deviceCaps: Self.captures)
        #expect(!plain.isMediaControllerCentric)
        #expect(V4L2DeviceProfile.uniqueID(capability: plain, path: "/dev/video0", sysfs: sysfs.path) == "v4l2:platform:vivid-000")
    }
}
