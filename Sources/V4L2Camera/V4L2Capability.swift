import CV4L2

/// What VIDIOC_QUERYCAP says about a node.
package struct V4L2Capability: Sendable, Equatable {
    package var driver: String
    package var card: String
    package var busInfo: String
    /// The node's own capabilities (`device_caps` when the driver reports them).
    package var deviceCaps: UInt32

    package init(driver: String, card: String, busInfo: String, deviceCaps: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.deviceCaps = deviceCaps
    }

    package init(node: V4L2Node) throws(V4L2Failure) {
        var cap = v4l2_capability()
        try node.control(OC_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &cap)
        let hasDeviceCaps = cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        self.init(
            driver: cString(cap.driver), card: cString(cap.card), busInfo: cString(cap.bus_info),
            deviceCaps: hasDeviceCaps ? cap.device_caps : cap.capabilities)
    }

    /// A single-planar video capture node that streams (metadata nodes, outputs and
    /// multi-planar-only nodes are skipped).
    package var capturesVideo: Bool {
        deviceCaps & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 && deviceCaps & UInt32(V4L2_CAP_STREAMING) != 0
    }

    /// Whether the media controller drives the node's input (V4L2_CAP_IO_MC): one stage of a
    /// pipeline whose sensor, ISP and scaler sub-devices must be configured to match before
    /// it streams (vimc's capture nodes, IPU6 and Raspberry Pi sensors), what libcamera does.
    package var isMediaControllerCentric: Bool { deviceCaps & UInt32(V4L2_CAP_IO_MC) != 0 }
}
