import Foundation

extension AVCaptureDevice {
    class func defaultBacking(for mediaType: AVMediaType) -> AVCaptureDevice? {
        if mediaType == .audio {
            return AVAudioSession.sharedInstance().preferredMicrophone ?? DeviceRegistry.current.defaultMicrophone
        }
        return DeviceRegistry.current.connected.first { $0.hasMediaType(mediaType) }
    }

    class func defaultBacking(_ deviceType: DeviceType, for mediaType: AVMediaType?, position: Position) -> AVCaptureDevice? {
        DeviceRegistry.current.connected.first {
            $0.deviceType.matches(deviceType) && (mediaType.map($0.hasMediaType) ?? true)
                && (position == .unspecified || $0.position == position)
        }
    }

    @available(*, deprecated, message: "Use AVCaptureDevice.DiscoverySession instead.")
    class func devicesBacking(for mediaType: AVMediaType) -> [AVCaptureDevice] {
        DeviceRegistry.current.connected.filter { $0.hasMediaType(mediaType) }
    }

    @available(*, deprecated, message: "Use AVCaptureDevice.DiscoverySession instead.")
    class func devicesBacking() -> [AVCaptureDevice] {
        DeviceRegistry.current.connected
    }

    /// Finds a device by `uniqueID`; `nil` if none is connected with it.
    public convenience init?(uniqueID deviceUniqueID: String) {
        guard let found = DeviceRegistry.current.device(uniqueID: deviceUniqueID) else { return nil }
        // An initialiser cannot hand back an existing object: this one makes a handle that
        // shares the device's state, and compares equal (`==`, `isEqual`) to the others.
        self.init(core: found.core)
    }

    /// Finds devices by type, media type and position.
    open class DiscoverySession: NSObject, @unchecked Sendable {
        private let deviceTypes: [DeviceType]
        private let mediaType: AVMediaType?
        private let position: Position

        /// The device types to look for are required; `nil` media type and `.unspecified` position match any.
        /// Observers of `devices` (see `DiscoverySession+KeyValueObserving.swift`).
        let discoveryKeyValueObservers = KeyValueObserverRegistry(label: "discoverySession")
        /// `devices` as last announced, the old value of the next change.
        let announcedDevices = Mutex<[AVCaptureDevice]>([])
        /// The registry current where the session was made: its devices, whichever thread asks.
        private let registry = DeviceRegistry.current

        public init(deviceTypes: [DeviceType], mediaType: AVMediaType?, position: Position) {
            self.deviceTypes = deviceTypes
            self.mediaType = mediaType
            self.position = position
            super.init()
            DiscoverySessions.shared.add(self)
        }

        /// Connected matching devices, ordered by `deviceTypes`, then by position.
        open var devices: [AVCaptureDevice] {
            let all = registry.connected.filter { device in
                device.deviceType.rank(in: deviceTypes) != nil && (mediaType.map(device.hasMediaType) ?? true)
                    && (position == .unspecified || device.position == position)
            }
            return all.enumerated().sorted { lhs, rhs in
                let lt = lhs.element.deviceType.rank(in: deviceTypes)!
                let rt = rhs.element.deviceType.rank(in: deviceTypes)!
                if lt != rt { return lt < rt }
                if lhs.element.position != rhs.element.position {
                    return lhs.element.position.rawValue < rhs.element.position.rawValue
                }
                return lhs.offset < rhs.offset
            }.map(\.element)
        }

        /// Sets of devices that can run together in an `AVCaptureMultiCamSession`: every
        /// pair of the discovered devices (more at once work too, within `hardwareCost`),
        /// except a virtual device with one of its own constituents, and two USB cameras on
        /// one bandwidth domain that cannot stream together even at their cheapest formats.
        open var supportedMultiCamDeviceSets: [Set<AVCaptureDevice>] { Self.multiCamSets(of: devices) }
    }
}

extension AVCaptureDevice.DeviceType {
    /// iOS 17's deprecated `builtInMicrophone` is a synonym of `microphone`: asking for
    /// either finds the microphone, whose `deviceType` is `.microphone`.
    private static let deprecatedMicrophone = AVCaptureDevice.DeviceType(rawValue: "AVCaptureDeviceTypeBuiltInMicrophone")

    func matches(_ asked: AVCaptureDevice.DeviceType) -> Bool {
        self == asked || (self == .microphone && asked == Self.deprecatedMicrophone)
    }

    /// Where the device type comes in the asked-for list, if at all.
    func rank(in asked: [AVCaptureDevice.DeviceType]) -> Int? { asked.firstIndex(where: matches) }
}
